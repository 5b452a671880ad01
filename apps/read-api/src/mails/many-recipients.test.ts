import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { LISTED_RECIPIENTS, storeMail, type MailDetail, type MailListPage, type ThreadListPage } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const TO = 9_998;
const CC = 2;

/** One mail to ten thousand people: it made a page of 447 KB. */
function announcement(): Buffer {
  // Ten to a line: a header block holds at most 2,000 lines.
  const to = Array.from({ length: TO }, (_, index) => `Member ${index} <member-${index}@list.example>${index % 10 === 9 ? ',\r\n ' : ', '}`)
    .join('')
    .replace(/,\s*$/, '');
  return Buffer.from(
    [
      'From: Board <board@example.com>',
      `To: ${to}`,
      'Cc: Ann <ann@example.com>, bob@example.com',
      'Subject: Annual meeting',
      'Message-ID: <annual@example.com>',
      'Content-Type: text/plain',
      '',
      'See you there.',
      '',
    ].join('\r\n'),
  );
}

describe('list rows name a few recipients and count them all', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  let mailId: number;

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    user = await createTestUser(db, 'many-recipients');
    for (let index = 0; index < 3; index++) {
      const eml = `From: a@example.com\r\nTo: me@example.com\r\nCc: c1@example.com, c2@example.com, c3@example.com\r\nSubject: small ${index}\r\nMessage-ID: <small-${index}@example.com>\r\n\r\nhi\r\n`;
      await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: Buffer.from(eml) });
    }
    mailId = (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: announcement() })).id;
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const get = async (path: string) => {
    const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
    assert.equal(response.status, 200);
    const text = await response.text();
    return { bytes: Buffer.byteLength(text), body: JSON.parse(text) as unknown };
  };

  test('a page holding a 10,000-recipient mail stays small: its row has the first recipients and the count', async () => {
    const { bytes, body } = await get(`/v2/mails?mailboxId=${user.mailboxes.inbox}`);
    const row = (body as MailListPage).items.find((item) => item.id === mailId);
    assert.ok(row);
    assert.equal(row.recipients.length, LISTED_RECIPIENTS);
    assert.deepEqual(row.recipients[0], { name: 'Member 0', address: 'member-0@list.example' });
    assert.equal(row.recipientCount, TO + CC);
    assert.ok(bytes < 8 * 1024, `the page of four mails is ${bytes} bytes`);
  });

  test('the conversations and a thread list the same few; Cc follows To when To is short', async () => {
    const threads = await get('/v2/threads');
    const latest = (threads.body as ThreadListPage).items.find((item) => item.latest.id === mailId)?.latest;
    assert.equal(latest?.recipients.length, LISTED_RECIPIENTS);
    assert.ok(threads.bytes < 8 * 1024);
    const small = (threads.body as ThreadListPage).items.find((item) => item.latest.id !== mailId)?.latest;
    assert.deepEqual(small && { recipients: small.recipients, recipientCount: small.recipientCount }, {
      recipients: ['me', 'c1', 'c2'].map((name) => ({ name: '', address: `${name}@example.com` })),
      recipientCount: 4,
    });
  });

  test('the mail itself has every recipient', async () => {
    const { body } = await get(`/v2/mails/${mailId}`);
    const detail = body as MailDetail;
    assert.equal(detail.to.length, TO);
    assert.deepEqual(detail.cc, [
      { name: 'Ann', address: 'ann@example.com' },
      { name: '', address: 'bob@example.com' },
    ]);
    assert.equal(detail.recipientCount, TO + CC);
  });
});
