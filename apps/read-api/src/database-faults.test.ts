import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { accessTokenFor, createTestUser, testBlobStore, testDatabase, type TestUser, logFaultsAsExpected } from '@letterbox/testing';
import { startReadApiServer } from './testing/read-api-server';

// Every test here breaks the database on purpose: its warnings are expected.
logFaultsAsExpected();

describe('database faults answer 503 and say nothing of the database', () => {
  let db: Database;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'db-faults');
  });

  after(async () => {
    await db?.close();
  });

  test('a statement held past the statement timeout frees its connection and answers 503', async () => {
    const api = await startReadApiServer({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });
    const blocker = await db.sql.connect();
    try {
      const token = await api.login(user.email, user.password);
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE mails, mailboxes IN ACCESS EXCLUSIVE MODE');
      for (const path of ['/v2/mails?limit=5', '/v2/mailboxes']) {
        const response = await fetch(`${api.url}${path}`, {
          headers: { authorization: `Bearer ${token}` },
          // Without a statement timeout the request waits for the lock, which this test holds.
          signal: AbortSignal.timeout(10_000),
        });
        assert.equal(response.status, 503, path);
        assert.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.ok(Number(response.headers.get('retry-after')) > 0, 'Retry-After');
        const problem = (await response.json()) as { detail: string };
        assert.doesNotMatch(problem.detail, /statement|mails|lock/i);
      }
      await blocker.query('ROLLBACK');
      const list = await fetch(`${api.url}/v2/mails?limit=5`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(list.status, 200);
    } finally {
      blocker.release();
      await api.close();
    }
  });

  test('a change held past the statement timeout by a locked mail answers 503 with Retry-After, never 500', async () => {
    const eml = await new MailComposer({ from: 'ann@outside.test', to: user.email, subject: 'Locked', text: 'held' }).compile().build();
    const { id } = await storeMail(db, testBlobStore(), { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
    const api = await startReadApiServer({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });
    const blocker = await db.sql.connect();
    try {
      const token = await api.login(user.email, user.password);
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM mails WHERE id = $1 FOR UPDATE', [id]);
      // Prisma's writes; a bulk change allows itself a longer timeout (libs/mail's BulkMailChanges).
      for (const [method, path, body] of [
        ['PATCH', `/v2/mails/${id}`, { seen: true }],
        ['PATCH', `/v2/mails/${id}`, { mailboxId: user.mailboxes.spam }],
        ['DELETE', `/v2/mails/${id}`, undefined],
      ] as const) {
        const response = await fetch(`${api.url}${path}`, {
          method,
          body: body && JSON.stringify(body),
          headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
          signal: AbortSignal.timeout(10_000),
        });
        assert.equal(response.status, 503, `${method} ${path} ${JSON.stringify(body)}`);
        assert.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.ok(Number(response.headers.get('retry-after')) > 0, 'Retry-After');
      }
      await blocker.query('ROLLBACK');
      const changed = await fetch(`${api.url}/v2/mails/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ seen: true }),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      assert.equal(changed.status, 200);
    } finally {
      blocker.release();
      await api.close();
    }
  });

  test('a database that cannot be reached answers 503 with Retry-After, never 500, naming nothing of it', async () => {
    const api = await startReadApiServer({ DATABASE_URL: 'postgresql://secret-user:secret-password@127.0.0.1:1/secret-db' });
    try {
      const token = accessTokenFor(user);
      for (const [method, path, body] of [
        ['GET', '/v2/mailboxes', undefined],
        ['POST', '/v2/auth/login', JSON.stringify({ email: user.email, password: user.password })],
      ] as const) {
        const response = await fetch(`${api.url}${path}`, { method, body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
        assert.equal(response.status, 503, `${method} ${path}`);
        assert.ok(Number(response.headers.get('retry-after')) > 0, 'Retry-After');
        const text = await response.text();
        assert.match(text, /unavailable; try again shortly/);
        assert.doesNotMatch(text, /127\.0\.0\.1|ECONNREFUSED|secret/);
      }
    } finally {
      await api.close();
    }
  });

  test('/health says the database is down without naming its address or error', async () => {
    const api = await startReadApiServer({ DATABASE_URL: 'postgresql://secret-user:secret-password@127.0.0.1:1/secret-db' });
    try {
      const response = await fetch(`${api.url}/health`);
      assert.equal(response.status, 503);
      const text = await response.text();
      assert.match(text, /database: unavailable/);
      assert.doesNotMatch(text, /127\.0\.0\.1|ECONNREFUSED|secret|:1\b/);
    } finally {
      await api.close();
    }
  });
});
