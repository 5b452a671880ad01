import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, waitFor, type TestUser, withFaultsExpected } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
const SEARCHES = 12;
const PER_USER = 2;

interface Answer {
  status: number;
  retryAfter: string | null;
  contentType: string | null;
}

describe("fairness: one user's heavy searches leave everyone else's requests their connections", () => {
  const blobs = testBlobStore();
  let db: Database;
  let api: RunningApi;
  let searcher: TestUser;
  let reader: TestUser;

  before(async () => {
    db = testDatabase();
    [searcher, reader] = [await createTestUser(db, 'fair-searcher'), await createTestUser(db, 'fair-reader')];
    for (const user of [searcher, reader]) {
      const eml = await new MailComposer({ from: 'ann@outside.test', to: user.email, subject: 'Lighthouse', text: 'Meet at the lighthouse' }).compile().build();
      await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
    }
    // A small shared pool, so that searches holding every connection of it would be seen at once; the
    // heavy statement timeout longer than the test, so that the searches stay pending until the lock goes.
    api = await startReadApiServer({
      DATABASE_POOL_SIZE: '4',
      DATABASE_HEAVY_POOL_SIZE: '2',
      DATABASE_HEAVY_STATEMENT_TIMEOUT_MS: '30000',
      HEAVY_REQUESTS_PER_USER: String(PER_USER),
      HEAVY_REQUESTS_WAIT_MS: '1000',
    });
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  test(`while one user's ${SEARCHES} searches wait on the search index, another user's list and sign-in are answered; the searches past the limit get 429`, async (t) => {
    const searcherToken = await api.login(searcher.email, searcher.password);
    const readerToken = await api.login(reader.email, reader.password);
    const blocker = await db.sql.connect();
    let released = false;
    try {
      // Every full-text search reads mail_search: under this lock each one waits until the test releases it.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE mail_search IN ACCESS EXCLUSIVE MODE');
      const { rows } = await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const blockerPid = rows[0].pid;
      const answers: Answer[] = [];
      const searches = Array.from({ length: SEARCHES }, async () => {
        const response = await fetch(`${api.url}/v2/mails?q=lighthouse&limit=20`, { headers: { authorization: `Bearer ${searcherToken}` } });
        await response.arrayBuffer();
        const answer = { status: response.status, retryAfter: response.headers.get('retry-after'), contentType: response.headers.get('content-type') };
        answers.push(answer);
        return answer;
      });
      await waitFor(async () => (await searchesBlockedBy(db, blockerPid)) === PER_USER, { what: `${PER_USER} searches to wait on the locked search index` });

      const started = performance.now();
      const list = await fetch(`${api.url}/v2/mails?limit=20`, { headers: { authorization: `Bearer ${readerToken}` }, signal: AbortSignal.timeout(10_000) });
      const listMs = performance.now() - started;
      assert.equal(list.status, 200);
      assert.equal(((await list.json()) as { items: unknown[] }).items.length, 1);
      t.diagnostic(`the other user's mail list answered in ${listMs.toFixed(1)} ms while ${PER_USER} searches held the heavy pool`);
      assert.ok(await api.login(reader.email, reader.password), 'sign-in');

      await waitFor(() => answers.length === SEARCHES - PER_USER, { what: 'the searches past the limit to be refused' });
      for (const answer of answers) {
        assert.equal(answer.status, 429);
        assert.equal(answer.contentType, PROBLEM_JSON);
        assert.ok(Number(answer.retryAfter) > 0, 'Retry-After');
      }
      assert.equal(await searchesBlockedBy(db, blockerPid), PER_USER, 'the searches within the limit still wait');

      await blocker.query('ROLLBACK');
      released = true;
      const all = await Promise.all(searches);
      assert.deepEqual(
        all.map((answer) => answer.status).sort(),
        [...Array<number>(PER_USER).fill(200), ...Array<number>(SEARCHES - PER_USER).fill(429)],
        'the searches within the limit finish once the lock goes',
      );
    } finally {
      if (!released) await blocker.query('ROLLBACK');
      blocker.release();
    }
  });

  test("a search held past the heavy reads' shorter statement timeout answers 503 with Retry-After", async () =>
    withFaultsExpected(async () => {
      const shortSearches = await startReadApiServer({ DATABASE_STATEMENT_TIMEOUT_MS: '20000', DATABASE_HEAVY_STATEMENT_TIMEOUT_MS: '300' });
      const blocker = await db.sql.connect();
      try {
        const token = await shortSearches.login(searcher.email, searcher.password);
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE mail_search IN ACCESS EXCLUSIVE MODE');
        const search = await fetch(`${shortSearches.url}/v2/mails?q=lighthouse`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(10_000),
        });
        assert.equal(search.status, 503);
        assert.equal(search.headers.get('content-type'), PROBLEM_JSON);
        assert.ok(Number(search.headers.get('retry-after')) > 0, 'Retry-After');
      } finally {
        await blocker.query('ROLLBACK');
        blocker.release();
        await shortSearches.close();
      }
    }));
});

/**
 * How many statements wait for a lock the blocker's transaction holds. Asked on another connection: within
 * a transaction, pg_stat_activity answers the same snapshot each time.
 */
async function searchesBlockedBy(db: Database, blockerPid: number): Promise<number> {
  const { rows } = await db.sql.query<{ blocked: number }>(`SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [
    blockerPid,
  ]);
  return rows[0].blocked;
}
