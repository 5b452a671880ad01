import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { AccessTokens } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import type { ProblemDetails as Problem } from '@letterbox/http';
import { newCertKey, storeMail } from '@letterbox/mail';
import { randomMail, referenceMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, testSettings, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from './testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
/** Ids no row has: the largest a mail id or a mailbox id may be. */
const MISSING_MAIL_ID = Number.MAX_SAFE_INTEGER;
const MISSING_MAILBOX_ID = 2_147_483_647;

/**
 * What a client can tell from a problem answer, with the ids it asked about blanked out:
 * the answer about another user's thing must be this exact shape of the answer about
 * nothing at all.
 */
async function problemShape(response: Response, ...ids: number[]) {
  const text = await response.text();
  const body = JSON.parse(text) as Problem;
  const blank = (value: string | undefined) => ids.reduce((result, id) => result?.split(String(id)).join('<id>'), value);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    keys: Object.keys(body).sort(),
    type: body.type,
    title: body.title,
    bodyStatus: body.status,
    detail: blank(body.detail),
    instance: blank(body.instance),
  };
}

interface MailRow {
  mailbox_id: number;
  seen: boolean;
  flagged: boolean;
  important: boolean;
  deleted_at: Date | null;
  subject: string;
  storage_key: string;
}

describe('one user cannot see or touch another user’s mail', () => {
  let db: Database;
  let api: RunningApi;
  let owner: TestUser;
  let stranger: TestUser;
  let ownerToken: string;
  let strangerToken: string;
  let initial: { mail: MailRow; mailboxes: unknown[]; receipts: unknown[] };
  let ownerMailId: number;
  let ownerPartIds: string[];
  let strangerMailId: number;
  const subject = `Isolation ${randomUUID()}`;

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    owner = await createTestUser(db, 'owner');
    stranger = await createTestUser(db, 'stranger');
    const eml = await referenceMail('medium', {
      from: { name: 'Owner', address: owner.email },
      to: [{ name: 'Someone', address: 'someone@example.test' }],
      subject,
    });
    ownerMailId = (await storeMail(db, blobs, { userId: owner.id, mailboxId: owner.mailboxes.inbox, eml })).id;
    await db.prisma.readReceipt.create({
      data: { officeId: owner.officeId, mailId: BigInt(ownerMailId), recipientEmail: 'someone@example.test', certKey: newCertKey() },
    });
    strangerMailId = (
      await storeMail(db, blobs, {
        userId: stranger.id,
        mailboxId: stranger.mailboxes.inbox,
        eml: await randomMail(4242, { to: [{ name: 'Stranger', address: stranger.email }] }),
      })
    ).id;
    ownerPartIds = (await db.prisma.attachment.findMany({ where: { mailId: BigInt(ownerMailId) }, select: { partId: true } })).map(
      (attachment) => attachment.partId,
    );
    api = await startReadApiServer();
    ownerToken = await api.login(owner.email, owner.password);
    strangerToken = await api.login(stranger.email, stranger.password);
    initial = { mail: await ownerMailRow(), mailboxes: await ownerMailboxes(), receipts: await ownerReceipts() };
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = (token: string | undefined, method: string, path: string, body?: object, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });

  const ownerMailRow = async () =>
    (await db.sql.query<MailRow>('SELECT mailbox_id, seen, flagged, important, deleted_at, subject, storage_key FROM mails WHERE id = $1', [ownerMailId]))
      .rows[0];
  const ownerMailboxes = async () =>
    (await db.sql.query('SELECT id, total_count, unread_count, locked FROM mailboxes WHERE user_id = $1 ORDER BY id', [owner.id])).rows;
  const ownerReceipts = async () =>
    (await db.sql.query('SELECT id, first_read_at, read_count FROM read_receipts WHERE mail_id = $1 ORDER BY id', [ownerMailId])).rows;

  test('the owner can reach their own mail (so a 404 below is about the token, not the data)', async () => {
    assert.ok(ownerPartIds.length >= 2, 'the medium reference mail has attachments');
    assert.equal((await call(ownerToken, 'GET', `/v2/mails/${ownerMailId}`)).status, 200);
    assert.equal((await call(ownerToken, 'GET', `/v2/mails/${ownerMailId}/raw`)).status, 200);
    for (const partId of ownerPartIds) {
      const response = await call(ownerToken, 'GET', `/v2/mails/${ownerMailId}/attachments/${partId}`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
    }
  });

  const reads: Array<[string, (id: number) => string, Record<string, string>]> = [
    ['GET /v2/mails/:id', (id) => `/v2/mails/${id}`, {}],
    ['GET /v2/mails/:id/raw', (id) => `/v2/mails/${id}/raw`, {}],
    ['GET /v2/mails/:id/raw with a range', (id) => `/v2/mails/${id}/raw`, { range: 'bytes=0-9' }],
    ['GET /v2/mails/:id/attachments.zip', (id) => `/v2/mails/${id}/attachments.zip`, {}],
  ];
  for (const [name, pathOf, headers] of reads) {
    test(`${name} of another user’s mail is the 404 of a mail that does not exist`, async () => {
      const theirs = await problemShape(await call(strangerToken, 'GET', pathOf(ownerMailId), undefined, headers), ownerMailId);
      const missing = await problemShape(await call(strangerToken, 'GET', pathOf(MISSING_MAIL_ID), undefined, headers), MISSING_MAIL_ID);
      assert.equal(theirs.status, 404);
      assert.equal(theirs.contentType, PROBLEM_JSON);
      assert.deepEqual(theirs, missing);
    });
  }

  test('GET /v2/mails/:id/attachments/:partId of another user’s mail is the 404 of a mail that does not exist', async () => {
    for (const partId of [...ownerPartIds, '9']) {
      const path = (id: number) => `/v2/mails/${id}/attachments/${partId}`;
      const theirs = await problemShape(await call(strangerToken, 'GET', path(ownerMailId)), ownerMailId);
      const missing = await problemShape(await call(strangerToken, 'GET', path(MISSING_MAIL_ID)), MISSING_MAIL_ID);
      assert.equal(theirs.status, 404, partId);
      assert.deepEqual(theirs, missing, partId);
    }
  });

  const changes: Array<[string, () => object]> = [
    ['mark seen', () => ({ seen: true })],
    ['flag and mark important', () => ({ flagged: true, important: true })],
    ['move into the stranger’s own trash', () => ({ mailboxId: stranger.mailboxes.trash })],
  ];
  for (const [name, body] of changes) {
    test(`PATCH (${name}) of another user’s mail is the 404 of a mail that does not exist`, async () => {
      const theirs = await problemShape(await call(strangerToken, 'PATCH', `/v2/mails/${ownerMailId}`, body()), ownerMailId);
      const missing = await problemShape(await call(strangerToken, 'PATCH', `/v2/mails/${MISSING_MAIL_ID}`, body()), MISSING_MAIL_ID);
      assert.equal(theirs.status, 404);
      assert.equal(theirs.contentType, PROBLEM_JSON);
      assert.deepEqual(theirs, missing);
    });
  }

  test('PATCH moving another user’s mail into that user’s own mailbox is a 404 like a missing mailbox', async () => {
    const theirs = await problemShape(
      await call(strangerToken, 'PATCH', `/v2/mails/${ownerMailId}`, { mailboxId: owner.mailboxes.trash }),
      ownerMailId,
      owner.mailboxes.trash,
    );
    const missing = await problemShape(
      await call(strangerToken, 'PATCH', `/v2/mails/${MISSING_MAIL_ID}`, { mailboxId: MISSING_MAILBOX_ID }),
      MISSING_MAIL_ID,
      MISSING_MAILBOX_ID,
    );
    assert.equal(theirs.status, 404);
    assert.deepEqual(theirs, missing);
  });

  test('PATCH moving one’s own mail into another user’s mailbox is the 404 of a mailbox that does not exist', async () => {
    for (const mailboxId of Object.values(owner.mailboxes)) {
      const theirs = await problemShape(await call(strangerToken, 'PATCH', `/v2/mails/${strangerMailId}`, { mailboxId }), strangerMailId, mailboxId);
      const missing = await problemShape(
        await call(strangerToken, 'PATCH', `/v2/mails/${strangerMailId}`, { mailboxId: MISSING_MAILBOX_ID }),
        strangerMailId,
        MISSING_MAILBOX_ID,
      );
      assert.equal(theirs.status, 404);
      assert.deepEqual(theirs, missing);
    }
    const row = await db.sql.query<{ mailbox_id: number }>('SELECT mailbox_id FROM mails WHERE id = $1', [strangerMailId]);
    assert.equal(row.rows[0].mailbox_id, stranger.mailboxes.inbox, 'the stranger’s mail stayed in their inbox');
  });

  test('DELETE of another user’s mail is the 404 of a mail that does not exist', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const theirs = await problemShape(await call(strangerToken, 'DELETE', `/v2/mails/${ownerMailId}`), ownerMailId);
      const missing = await problemShape(await call(strangerToken, 'DELETE', `/v2/mails/${MISSING_MAIL_ID}`), MISSING_MAIL_ID);
      assert.equal(theirs.status, 404);
      assert.equal(theirs.contentType, PROBLEM_JSON);
      assert.deepEqual(theirs, missing);
    }
  });

  test('GET /v2/mails of another user’s mailbox is the 404 of a mailbox that does not exist', async () => {
    for (const mailboxId of Object.values(owner.mailboxes)) {
      for (const extra of ['', '&seen=false', '&with=attachments&with=receipt_confirm']) {
        const theirs = await problemShape(await call(strangerToken, 'GET', `/v2/mails?mailboxId=${mailboxId}${extra}`), mailboxId);
        const missing = await problemShape(await call(strangerToken, 'GET', `/v2/mails?mailboxId=${MISSING_MAILBOX_ID}${extra}`), MISSING_MAILBOX_ID);
        assert.equal(theirs.status, 404);
        assert.equal(theirs.contentType, PROBLEM_JSON);
        assert.deepEqual(theirs, missing);
      }
    }
  });

  test('the stranger’s list and mailboxes hold only the stranger’s things', async () => {
    const mailboxes = (await (await call(strangerToken, 'GET', '/v2/mailboxes')).json()) as { items: Array<{ id: number }> };
    assert.deepEqual(
      mailboxes.items.map((mailbox) => mailbox.id).sort((a, b) => a - b),
      Object.values(stranger.mailboxes).sort((a, b) => a - b),
    );
    const listResponse = await call(strangerToken, 'GET', '/v2/mails?limit=100&with=attachments&with=receipt_confirm');
    assert.equal(listResponse.status, 200);
    const list = (await listResponse.json()) as {
      items: Array<{ id: number; mailboxId: number; receiptConfirm: unknown[] }>;
      total: number;
    };
    assert.deepEqual(
      list.items.map((item) => item.id),
      [strangerMailId],
    );
    assert.equal(list.total, 1);
    assert.deepEqual(list.items[0].receiptConfirm, []);
    const search = (await (await call(strangerToken, 'GET', `/v2/mails?subject=${encodeURIComponent(subject)}`)).json()) as {
      items: unknown[];
      total: number;
    };
    assert.deepEqual(search, { items: [], total: 0, nextCursor: null });
    const bySender = (await (await call(strangerToken, 'GET', `/v2/mails?from=${encodeURIComponent(owner.email)}`)).json()) as {
      total: number;
    };
    assert.equal(bySender.total, 0);
  });

  test('the owner’s mail, mailboxes and receipt are unchanged after all of the above', async () => {
    assert.deepEqual(await ownerMailRow(), initial.mail);
    assert.deepEqual(await ownerMailboxes(), initial.mailboxes);
    assert.deepEqual(await ownerReceipts(), initial.receipts);
    const mine = (await (await call(ownerToken, 'GET', `/v2/mails?with=receipt_confirm`)).json()) as {
      items: Array<{ id: number; seen: boolean; receiptConfirm: Array<{ email: string; readCount: number }> }>;
    };
    assert.deepEqual(
      mine.items.map((item) => [item.id, item.seen, item.receiptConfirm]),
      [[ownerMailId, false, [{ email: 'someone@example.test', firstReadAt: null, readCount: 0 }]]],
    );
  });

  describe('requests without a valid token', () => {
    const settings = testSettings();
    const forged = () =>
      new AccessTokens('another-secret-that-is-at-least-32-characters-long', 3600).issue({ userId: owner.id, officeId: owner.officeId, tokenVersion: 0 })
        .accessToken;
    const expired = () =>
      new AccessTokens(settings.AUTH_TOKEN_SECRET, 60).issue({ userId: owner.id, officeId: owner.officeId, tokenVersion: 0 }, Date.now() - 2 * 3600_000)
        .accessToken;
    /** The owner's real token with its claims swapped to another user: the signature no longer matches. */
    const tampered = () => {
      const signature = ownerToken.slice(ownerToken.indexOf('.') + 1);
      const claims = Buffer.from(JSON.stringify({ u: stranger.id, o: stranger.officeId, e: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url');
      return `${claims}.${signature}`;
    };
    const credentials: Array<[string, () => Record<string, string>]> = [
      ['no Authorization header', () => ({})],
      ['an empty bearer token', () => ({ authorization: 'Bearer ' })],
      ['a garbage token', () => ({ authorization: 'Bearer garbage' })],
      ['a garbage token with a dot', () => ({ authorization: 'Bearer not.a-token' })],
      ['a token signed with another secret', () => ({ authorization: `Bearer ${forged()}` })],
      ['an expired token', () => ({ authorization: `Bearer ${expired()}` })],
      ['a token whose claims were changed', () => ({ authorization: `Bearer ${tampered()}` })],
      ['a Basic credential', () => ({ authorization: `Basic ${Buffer.from(`${owner.email}:${owner.password}`).toString('base64')}` })],
      ['a valid token under another scheme', () => ({ authorization: `Token ${ownerToken}` })],
    ];
    const routes: Array<[string, () => string, object?]> = [
      ['GET', () => '/v2/mailboxes'],
      ['GET', () => '/v2/mails'],
      ['GET', () => `/v2/mails/${ownerMailId}`],
      ['GET', () => `/v2/mails/${ownerMailId}/raw`],
      ['GET', () => `/v2/mails/${ownerMailId}/attachments/${ownerPartIds[0]}`],
      ['PATCH', () => `/v2/mails/${ownerMailId}`, { seen: true }],
      ['DELETE', () => `/v2/mails/${ownerMailId}`],
      ['GET', () => '/v2/auth/me'],
    ];

    for (const [name, headers] of credentials) {
      test(`${name} is a 401 problem on every protected route`, async () => {
        for (const [method, path, body] of routes) {
          const response = await call(undefined, method, path(), body, headers());
          const label = `${method} ${path()}`;
          assert.equal(response.status, 401, label);
          assert.equal(response.headers.get('content-type'), PROBLEM_JSON, label);
          const problem = (await response.json()) as Problem;
          assert.equal(problem.status, 401, label);
          assert.equal(problem.title, 'Unauthorized', label);
          assert.equal(typeof problem.detail, 'string', label);
        }
        assert.deepEqual(await ownerMailRow(), initial.mail, 'nothing changed');
      });
    }

    test('the valid token still works (the 401s were about the tokens)', async () => {
      assert.equal((await call(ownerToken, 'GET', `/v2/mails/${ownerMailId}`)).status, 200);
    });
  });
});
