import 'reflect-metadata';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import IORedis from 'ioredis';
import { CachedUserSessions, removeUser } from '@letterbox/accounts';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { UserEvents, type MailEvent } from '@letterbox/events';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, login, openEventStream, type SseConnection, testDatabase, testSettings, type TestUser } from '@letterbox/testing';
import { createReadApi } from '../create-read-api';
import { loadReadApiConfig } from '../read-api.config';

interface Api {
  url: string;
  close(): Promise<void>;
}

async function startApi(env: Record<string, string>): Promise<Api> {
  const config = loadReadApiConfig({ ...process.env, READ_API_PORT: '1', READ_API_HOST: '127.0.0.1', ...env });
  const app = await createReadApi(config, false);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

const created = (mailId: number, mailboxId: number): MailEvent => ({ type: 'mail.created', mailId, mailboxId });

/**
 * The probe's finding: a stream went on delivering mail events for hours after its session ended. Now every
 * revocation, announced over Redis, ends the streams it concerns, in every API process; the others go on.
 */
describe('event streams end with their session', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let db: Database;
  let first: Api;
  let second: Api;
  let redis: RedisConnection;
  let ingest: UserEvents;
  const opened: SseConnection[] = [];

  before(async () => {
    db = testDatabase();
    // A long memory of sessions: only the announcements can end what each process remembers.
    const env = { QUEUE_PREFIX: prefix, AUTH_SESSION_CACHE_SECONDS: '300', EVENT_STREAMS_PER_USER: '3' };
    first = await startApi(env);
    second = await startApi(env);
    redis = failFastConnection(loadConfig(redisConfig), 'redis events');
    ingest = new UserEvents(redis, prefix);
  });

  after(async () => {
    for (const connection of opened) connection.close();
    await Promise.all([first?.close(), second?.close()]);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await db?.close();
  });

  async function listen(token: string, on: Api): Promise<SseConnection> {
    const connection = await openEventStream(`${on.url}/v2/events`, { authorization: `Bearer ${token}` });
    opened.push(connection);
    if (connection.status !== 200) assert.fail(`the stream answered ${connection.status}: ${await connection.text()}`);
    return connection;
  }

  /** The stream's last word (after the mail events it was sent before) is an error event naming why, then it ends. */
  async function endsWith(connection: SseConnection, why: RegExp): Promise<void> {
    let last = await connection.next();
    while (last.event.startsWith('mail.')) last = await connection.next();
    assert.equal(last.event, 'error');
    assert.match((JSON.parse(last.data) as { detail: string }).detail, why);
    await connection.ended();
  }

  /** The stream is alive: a new event reaches it. */
  async function delivers(user: TestUser, connection: SseConnection, mailId: number): Promise<void> {
    await ingest.publish(user.id, created(mailId, user.mailboxes.inbox));
    const event = await connection.next();
    assert.deepEqual(JSON.parse(event.data), created(mailId, user.mailboxes.inbox));
  }

  const post = (url: string, path: string, token: string, body?: object) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });

  /** What the administrators' API or command line does, in a process of its own. */
  async function asAnotherProcess(change: (sessions: CachedUserSessions) => Promise<unknown>): Promise<void> {
    const connections = { publisher: new IORedis(testSettings().REDIS_URL), subscriber: new IORedis(testSettings().REDIS_URL) };
    try {
      await change(
        new CachedUserSessions(db.sql, connections.publisher, connections.subscriber, `${prefix}:session-revocations`, { ttlMs: 1000, maxEntries: 10 }),
      );
    } finally {
      connections.publisher.disconnect();
      connections.subscriber.disconnect();
    }
  }

  test('a sign-out ends the streams of that session, in every process; the user’s other sessions keep theirs', async () => {
    const user = await createTestUser(db, 'ada');
    const [phone, laptop] = [await login(first.url, user.email, user.password), await login(first.url, user.email, user.password)];
    const phoneHere = await listen(phone, first);
    const phoneThere = await listen(phone, second);
    const laptopThere = await listen(laptop, second);
    assert.equal((await post(first.url, '/v2/auth/logout', phone)).status, 204);
    await endsWith(phoneHere, /revoked/);
    await endsWith(phoneThere, /revoked/);
    await delivers(user, laptopThere, 2001);
    assert.equal((await openEventStream(`${second.url}/v2/events`, { authorization: `Bearer ${phone}` })).status, 401);
  });

  test('a sign-out everywhere ends every stream of the user, and no other user’s', async () => {
    const user = await createTestUser(db, 'ben');
    const other = await createTestUser(db, 'cleo');
    const [phone, laptop] = [await login(first.url, user.email, user.password), await login(first.url, user.email, user.password)];
    const streams = [await listen(phone, first), await listen(laptop, second)];
    const others = await listen(await login(first.url, other.email, other.password), second);
    assert.equal((await post(second.url, '/v2/auth/logout/everywhere', laptop)).status, 204);
    for (const stream of streams) await endsWith(stream, /revoked/);
    await delivers(other, others, 2002);
  });

  test('a new password ends every stream opened before it, this client’s too; its new token opens one', async () => {
    const user = await createTestUser(db, 'dora');
    const [phone, laptop] = [await login(first.url, user.email, user.password), await login(first.url, user.email, user.password)];
    const streams = [await listen(phone, first), await listen(laptop, second)];
    const changed = await post(first.url, '/v2/auth/password', phone, { currentPassword: user.password, newPassword: 'a brand new password' });
    assert.equal(changed.status, 200);
    for (const stream of streams) await endsWith(stream, /revoked/);
    await delivers(user, await listen(((await changed.json()) as { accessToken: string }).accessToken, second), 2003);
  });

  test('disabling the account ends its streams in every process', async () => {
    const user = await createTestUser(db, 'eli');
    const token = await login(first.url, user.email, user.password);
    const streams = [await listen(token, first), await listen(token, second)];
    await db.sql.query(`UPDATE users SET state = 'disabled' WHERE id = $1`, [user.id]);
    await asAnotherProcess((sessions) => sessions.revoke(user.id));
    for (const stream of streams) await endsWith(stream, /revoked|disabled/);
  });

  test('removing the account ends its streams in every process', async () => {
    const user = await createTestUser(db, 'finn');
    const token = await login(first.url, user.email, user.password);
    const streams = [await listen(token, first), await listen(token, second)];
    await asAnotherProcess((sessions) => removeUser(db, sessions, user.id));
    for (const stream of streams) await endsWith(stream, /revoked/);
  });

  test('a thief holding every stream a user may open does not lock the owner out, and their streams end with their session', async () => {
    const owner = await createTestUser(db, 'gina');
    const stolen = await login(first.url, owner.email, owner.password);
    const own = await login(first.url, owner.email, owner.password);
    const thiefs = [await listen(stolen, first), await listen(stolen, first), await listen(stolen, first)];
    const owners = await listen(own, first);
    await endsWith(thiefs[0], /at most 3 may be open/);
    await delivers(owner, owners, 2004);
    // At the cap again: the thief's next stream closes one of the thief's own, never the owner's.
    thiefs.push(await listen(stolen, first));
    await endsWith(thiefs[1], /at most 3 may be open/);
    await delivers(owner, owners, 2005);
    // The owner signs everything else out: the thief's streams end, the owner signs in again and listens on.
    assert.equal((await post(first.url, '/v2/auth/logout/everywhere', own)).status, 204);
    for (const stream of [thiefs[2], thiefs[3], owners]) await endsWith(stream, /revoked/);
    await delivers(owner, await listen(await login(first.url, owner.email, owner.password), first), 2006);
  });
});
