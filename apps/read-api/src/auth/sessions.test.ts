import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import IORedis from 'ioredis';
import { CachedUserSessions, removeUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import {
  accessTokenFor,
  createTestUser,
  type SendApiProcess,
  startSendApiProcess,
  testDatabase,
  testSettings,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

interface SignedIn {
  accessToken: string;
}

/** Two read API processes and a send API, sharing one Redis namespace, as a deployment runs them. */
describe('tokens end with a sign-out, a new password or the account', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let db: Database;
  let first: RunningApi;
  let second: RunningApi;
  let send: SendApiProcess;

  before(async () => {
    db = testDatabase();
    // A long memory: only the announcement over Redis can end what each process remembers.
    const env = { QUEUE_PREFIX: prefix, AUTH_SESSION_CACHE_SECONDS: '300' };
    first = await startReadApiServer(env);
    second = await startReadApiServer(env);
    send = await startSendApiProcess(env);
  });

  after(async () => {
    await Promise.all([first?.close(), second?.close(), send?.close()]);
    await db?.close();
  });

  /** 'in' when the process took the token (and now remembers it), 'out' when it answered 401. */
  const verdict = async (url: string, path: string, token: string) =>
    (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status === 401 ? 'out' : 'in';
  const everywhere = async (token: string) => [
    await verdict(first.url, '/v2/mailboxes', token),
    await verdict(second.url, '/v2/mailboxes', token),
    await verdict(send.url, '/v2/mails/send/1', token),
  ];
  const signIn = async (user: TestUser, password = user.password) =>
    (await (
      await fetch(`${first.url}/v2/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password }),
      })
    ).json()) as SignedIn;

  test('each process remembers a user’s token version: no database round trip on every request', async () => {
    const erin = await createTestUser(db, 'erin');
    const token = (await signIn(erin)).accessToken;
    assert.deepEqual(await everywhere(token), ['in', 'in', 'in']);
    // Changed behind the processes' backs, unannounced: only a process that asked the database again would see it.
    await db.sql.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [erin.id]);
    assert.deepEqual(await everywhere(token), ['in', 'in', 'in']);
  });

  test('a sign-out ends this session’s tokens at once, in every process; the user’s other sessions and other users keep theirs', async () => {
    const alice = await createTestUser(db, 'alice');
    const bob = await createTestUser(db, 'bob');
    const [phone, laptop, bobs] = [(await signIn(alice)).accessToken, (await signIn(alice)).accessToken, (await signIn(bob)).accessToken];
    for (const token of [phone, laptop, bobs]) assert.deepEqual(await everywhere(token), ['in', 'in', 'in']);
    const out = await fetch(`${second.url}/v2/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${laptop}` } });
    assert.equal(out.status, 204);
    assert.deepEqual(await everywhere(laptop), ['out', 'out', 'out']);
    const problem = (await (await fetch(`${first.url}/v2/mailboxes`, { headers: { authorization: `Bearer ${laptop}` } })).json()) as { detail: string };
    assert.match(problem.detail, /revoked/);
    assert.deepEqual(await everywhere(phone), ['in', 'in', 'in']);
    assert.deepEqual(await everywhere(bobs), ['in', 'in', 'in']);
  });

  test('a sign-out everywhere ends every token of the user at once, in every process; other users keep theirs', async () => {
    const alice = await createTestUser(db, 'alice');
    const bob = await createTestUser(db, 'bob');
    const [phone, laptop, bobs] = [(await signIn(alice)).accessToken, (await signIn(alice)).accessToken, (await signIn(bob)).accessToken];
    for (const token of [phone, laptop, bobs]) assert.deepEqual(await everywhere(token), ['in', 'in', 'in']);
    const out = await fetch(`${second.url}/v2/auth/logout/everywhere`, { method: 'POST', headers: { authorization: `Bearer ${laptop}` } });
    assert.equal(out.status, 204);
    for (const token of [phone, laptop]) assert.deepEqual(await everywhere(token), ['out', 'out', 'out']);
    assert.deepEqual(await everywhere(bobs), ['in', 'in', 'in']);
    assert.deepEqual(await everywhere((await signIn(alice)).accessToken), ['in', 'in', 'in'], 'signing in again works');
    const { rows } = await db.sql.query<{ action: string; client_address: string; office_id: number }>(
      `SELECT action, client_address, office_id FROM audit_events WHERE target = $1 AND action IN ('auth.sign-out', 'auth.token-revocation') ORDER BY id`,
      [`user:${alice.id}`],
    );
    assert.deepEqual(
      rows.map((row) => row.action),
      ['auth.sign-out', 'auth.token-revocation'],
    );
    assert.ok(rows.every((row) => row.client_address === '127.0.0.1' && row.office_id === alice.officeId));
  });

  test('a disabled account’s tokens end at once in every process, and it cannot sign in again', async () => {
    const erin = await createTestUser(db, 'erin');
    const token = (await signIn(erin)).accessToken;
    assert.deepEqual(await everywhere(token), ['in', 'in', 'in']);
    // As the administrators' API disables: the state, then the revocation every process hears of.
    await db.sql.query(`UPDATE users SET state = 'disabled' WHERE id = $1`, [erin.id]);
    await revokeAsAnotherProcess(erin.id);
    assert.deepEqual(await everywhere(token), ['out', 'out', 'out']);
    const refused = await fetch(`${first.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: erin.email, password: erin.password }),
    });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { type: string }).type, 'https://letterbox.dev/problems/account-disabled');
  });

  test('a new password ends the earlier tokens; the answer carries one that works; a wrong current password is 403', async () => {
    const carol = await createTestUser(db, 'carol');
    const old = (await signIn(carol)).accessToken;
    assert.deepEqual(await everywhere(old), ['in', 'in', 'in']);
    const change = (body: object) =>
      fetch(`${first.url}/v2/auth/password`, {
        method: 'POST',
        headers: { authorization: `Bearer ${old}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const wrong = await change({ currentPassword: 'not it', newPassword: 'a-new-password-1' });
    assert.equal(wrong.status, 403);
    assert.match(((await wrong.json()) as { detail: string }).detail, /body\.currentPassword/);
    const changed = await change({ currentPassword: carol.password, newPassword: 'a-new-password-1' });
    assert.equal(changed.status, 200);
    const fresh = ((await changed.json()) as SignedIn).accessToken;
    assert.deepEqual(await everywhere(old), ['out', 'out', 'out']);
    assert.deepEqual(await everywhere(fresh), ['in', 'in', 'in']);
    assert.ok((await signIn(carol, 'a-new-password-1')).accessToken);
  });

  test('a removed account’s tokens end at once in every process', async () => {
    const dave = await createTestUser(db, 'dave');
    const token = accessTokenFor(dave);
    assert.deepEqual(await everywhere(token), ['in', 'in', 'in']);
    await asAnotherProcess((sessions) => removeUser(db, sessions, dave.id));
    // The announcement reaches each process as a Redis message, a moment after PUBLISH answers: "at once" is that moment.
    const verdicts = await waitFor(
      async () => {
        const now = await everywhere(token);
        return now.every((verdict) => verdict === 'out') ? now : undefined;
      },
      { timeoutMs: 2000, what: () => "the removed account's token refused by every process" },
    );
    assert.deepEqual(verdicts, ['out', 'out', 'out']);
  });

  /** Runs `change` with the sessions of a process of its own, as the administrators' command line or API would. */
  async function asAnotherProcess<T>(change: (sessions: CachedUserSessions) => Promise<T>): Promise<T> {
    const redis = { publisher: new IORedis(testSettings().REDIS_URL), subscriber: new IORedis(testSettings().REDIS_URL) };
    try {
      return await change(new CachedUserSessions(db.sql, redis.publisher, redis.subscriber, `${prefix}:session-revocations`, { ttlMs: 1000, maxEntries: 10 }));
    } finally {
      redis.publisher.disconnect();
      redis.subscriber.disconnect();
    }
  }

  const revokeAsAnotherProcess = (userId: number) => asAnotherProcess((sessions) => sessions.revoke(userId));
});
