import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail, type ContactSuggestion } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

describe('contacts: recipient autocomplete from the mail a user sends and receives', () => {
  const blobs = testBlobStore();
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;

  const mail = (headers: string, date = new Date()) =>
    Buffer.from(`${headers}\r\nSubject: x\r\nDate: ${date.toUTCString()}\r\nMessage-ID: <${Math.random()}@x.test>\r\n\r\nx\r\n`);

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'contacts');
    const other = await createTestUser(db, 'contacts-other');
    const inbox = (from: string, date?: Date) =>
      storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: mail(`From: ${from}\r\nTo: ${user.email}`, date) });
    const sent = (to: string) => storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.sent, eml: mail(`From: ${user.email}\r\nTo: ${to}`) });
    for (let index = 0; index < 3; index++) await inbox('Annie News <news@annual.test>', new Date(Date.now() - 400 * 86_400_000));
    await inbox('Ann Lee <ann.lee@outside.test>');
    await sent('Ann Lee <ann.lee@outside.test>, "Anton Berg" <anton@outside.test>');
    await sent('anton@outside.test');
    await inbox('Bob Stone <bob@outside.test>');
    await storeMail(db, blobs, { userId: other.id, mailboxId: other.mailboxes.inbox, eml: mail('From: Andrea <andrea@outside.test>\r\nTo: x@x.test') });
    await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.drafts, eml: mail(`From: ${user.email}\r\nTo: Anders <anders@draft.test>`) });
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const suggest = async (q: string) => {
    const response = await fetch(`${api.url}/v2/contacts?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    return ((await response.json()) as { items: ContactSuggestion[] }).items;
  };

  test("people written to come first, then those heard from lately, then old senders; drafts and other users' mail count for nothing", async () => {
    const found = await suggest('an');
    assert.deepEqual(
      found.map((contact) => contact.address),
      ['anton@outside.test', 'ann.lee@outside.test', 'news@annual.test'],
    );
    assert.deepEqual(found[0], { address: 'anton@outside.test', name: 'Anton Berg', sentCount: 2, receivedCount: 0, lastAt: found[0].lastAt });
    assert.deepEqual(found[1].sentCount + found[1].receivedCount, 2);
  });

  test('a typed start of an address or of any word of a name matches, in any case; LIKE characters are literal', async () => {
    assert.deepEqual(
      (await suggest('STONE')).map((contact) => contact.address),
      ['bob@outside.test'],
    );
    assert.deepEqual(
      (await suggest('bob@out')).map((contact) => contact.address),
      ['bob@outside.test'],
    );
    assert.deepEqual(await suggest('%'), []);
    assert.deepEqual(await suggest('zzz'), []);
    assert.ok((await suggest('')).length >= 4, 'nothing typed: the best contacts');
  });
});
