import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const TRIES = 12;

/**
 * A folder deleted while mail is moved into it (one mail by PATCH, listed mails by bulk):
 * either the move comes first and the mail goes to the trash with the folder, or the
 * delete comes first and the move is refused (409, or 404 when the folder was already
 * gone before the move was checked). Never a 500 (a foreign-key violation, as it was).
 */
describe('deleting a folder while mail is moved into it', () => {
  const blobs = testBlobStore();
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'folder-race');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test(`${TRIES} tries: a move answers 200, 404 or 409, never 500, and no mail is lost`, async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const folder = (await call('POST', '/v2/mailboxes', { name: `Doomed ${attempt}` })).body.id as number;
      const mails = await Promise.all(
        [0, 1, 2].map(
          async (index) =>
            (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: await randomMail(attempt * 3 + index, {}) })).id,
        ),
      );
      const [removed, patched, listed] = await Promise.all([
        call('DELETE', `/v2/mailboxes/${folder}`),
        call('PATCH', `/v2/mails/${mails[0]}`, { mailboxId: folder }),
        call('POST', '/v2/mails/bulk', { ids: mails.slice(1), mailboxId: folder }),
      ]);
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      for (const answer of [patched, listed]) {
        assert.ok([200, 404, 409].includes(answer.status), `${answer.status}: ${JSON.stringify(answer.body)}`);
        if (answer.status === 409) assert.match(String(answer.body.detail), new RegExp(`mailbox ${folder} was deleted while mail was being moved into it`));
      }
      statuses.push(patched.status, listed.status);
      const { rows } = await db.sql.query<{ id: string; mailbox_id: number }>(
        'SELECT id, mailbox_id FROM mails WHERE id = ANY($1::int8[]) AND deleted_at IS NULL',
        [mails],
      );
      assert.equal(rows.length, 3, 'every mail is still there');
      for (const row of rows) assert.ok([user.mailboxes.inbox, user.mailboxes.trash].includes(row.mailbox_id), `mail ${row.id} in mailbox ${row.mailbox_id}`);
    }
    assert.equal(statuses.filter((status) => status >= 500).length, 0);
  });
});
