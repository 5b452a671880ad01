import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import IORedis from 'ioredis';
import { CachedUserSessions, removeUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { accessTokenFor, createTestUser, type SendApiProcess, startSendApiProcess, testDatabase, testSettings, type TestUser } from '@letterbox/testing';
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

  test('a sign-out ends every token of the user at once, in every process; other users keep theirs', async () => {
    const alice = await createTestUser(db, 'alice');
    const bob = await createTestUser(db, 'bob');
    const [phone, laptop, bobs] = [(await signIn(alice)).accessToken, (await signIn(alice)).accessToken, (await signIn(bob)).accessToken];
    assert.deepEqual(await everywhere(phone), ['in', 'in', 'in']);
    assert.deepEqual(await everywhere(bobs), ['in', 'in', 'in']);
    const out = await fetch(`${second.url}/v2/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${laptop}` } });
    assert.equal(out.status, 204);
    for (const token of [phone, laptop]) assert.deepEqual(await everywhere(token), ['out', 'out', 'out']);
    const problem = (await (await fetch(`${first.url}/v2/mailboxes`, { headers: { authorization: `Bearer ${phone}` } })).json()) as { detail: string };
    assert.match(problem.detail, /revoked/);
    assert.deepEqual(await everywhere(bobs), ['in', 'in', 'in']);
    assert.deepEqual(await everywhere((await signIn(alice)).accessToken), ['in', 'in', 'in'], 'signing in again works');
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
    const redis = { publisher: new IORedis(testSettings().REDIS_URL), subscriber: new IORedis(testSettings().REDIS_URL) };
    try {
      const sessions = new CachedUserSessions(db.sql, redis.publisher, redis.subscriber, `${prefix}:session-revocations`, { ttlMs: 1000, maxEntries: 10 });
      assert.equal(await removeUser(db, sessions, dave.id), true);
    } finally {
      redis.publisher.disconnect();
      redis.subscriber.disconnect();
    }
    assert.deepEqual(await everywhere(token), ['out', 'out', 'out']);
  });
});
