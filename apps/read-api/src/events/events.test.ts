import 'reflect-metadata';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { AccessTokens } from '@letterbox/auth';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { UserEventFeed, UserEvents, type MailEvent } from '@letterbox/events';
import { storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import {
  createTestUser,
  login,
  openEventStream,
  type SseConnection,
  type SseEvent,
  testBlobStore,
  testDatabase,
  type TestUser,
  withFaultsExpected,
} from '@letterbox/testing';
import { createReadApi } from '../create-read-api';
import { loadReadApiConfig } from '../read-api.config';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

interface Api {
  url: string;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

/** A read API process of its own (as each clustered worker is), in a Redis namespace of this file's own. */
async function startApi(env: Record<string, string>): Promise<Api> {
  const config = loadReadApiConfig({ ...process.env, READ_API_PORT: '1', READ_API_HOST: '127.0.0.1', ...env });
  const app = await createReadApi(config, false);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
}

const created = (mailId: number, mailboxId: number): MailEvent => ({ type: 'mail.created', mailId, mailboxId });

describe('live mail events on /v2/events', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const redisTarget = loadConfig(redisConfig);
  let db: Database;
  let api: Api;
  let redis: RedisConnection;
  /** The ingest worker's side: it publishes through the library, not the API. */
  let ingest: UserEvents;
  let alice: TestUser;
  let bob: TestUser;
  let aliceToken: string;
  let bobToken: string;
  const aliceMail: number[] = [];
  let bobMail: number;
  let projects: number;
  const opened: SseConnection[] = [];

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    alice = await createTestUser(db, 'alice');
    bob = await createTestUser(db, 'bob');
    projects = (await db.prisma.mailbox.create({ data: { userId: alice.id, name: 'Projects', role: 'custom' } })).id;
    for (let seed = 0; seed < 4; seed++) {
      const eml = await randomMail(8100 + seed, { to: [{ name: 'Alice', address: alice.email }] });
      aliceMail.push((await storeMail(db, blobs, { userId: alice.id, mailboxId: alice.mailboxes.inbox, eml })).id);
    }
    const eml = await randomMail(8200, { to: [{ name: 'Bob', address: bob.email }] });
    bobMail = (await storeMail(db, blobs, { userId: bob.id, mailboxId: bob.mailboxes.inbox, eml })).id;
    api = await startApi({ QUEUE_PREFIX: prefix });
    aliceToken = await login(api.url, alice.email, alice.password);
    bobToken = await login(api.url, bob.email, bob.password);
    redis = failFastConnection(redisTarget, 'redis events');
    ingest = new UserEvents(redis, prefix);
  });

  after(async () => {
    for (const connection of opened) connection.close();
    await api?.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await db?.close();
  });

  async function listen(token: string, options: { lastEventId?: string; viaQuery?: boolean; on?: Api } = {}): Promise<SseConnection> {
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    if (options.viaQuery) query.set('access_token', token);
    else headers.authorization = `Bearer ${token}`;
    if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
    const connection = await openEventStream(`${(options.on ?? api).url}/v2/events?${query}`, headers);
    opened.push(connection);
    if (connection.status !== 200) assert.fail(`the stream answered ${connection.status}: ${await connection.text()}`);
    return connection;
  }

  async function patch(token: string, mailId: number, body: object): Promise<void> {
    const response = await fetch(`${api.url}/v2/mails/${mailId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200, await response.text());
  }

  async function remove(mailId: number): Promise<void> {
    const response = await fetch(`${api.url}/v2/mails/${mailId}`, { method: 'DELETE', headers: { authorization: `Bearer ${aliceToken}` } });
    assert.equal(response.status, 200, await response.text());
  }

  /** The event's type, id and data, checked to agree with each other. */
  function parsed(event: SseEvent): MailEvent & { id: string } {
    assert.match(event.id ?? '', /^\d+-\d+$/);
    const data = JSON.parse(event.data) as MailEvent;
    assert.equal(data.type, event.event, 'the SSE event name is the event type');
    return { ...data, id: event.id as string };
  }

  /** The server learns of a client gone when its socket closes, a moment after the client closed it. */
  async function allClosed(feed: UserEventFeed): Promise<void> {
    for (let attempt = 0; attempt < 400 && feed.followerCount() > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(feed.followerCount(), 0, 'every stream closed');
  }

  const withoutId = ({ id: _id, ...event }: MailEvent & { id: string }) => event;

  test('without a token, or with a bad one, the stream is a 401 problem', async () => {
    for (const [path, headers] of [
      ['/v2/events', {}],
      ['/v2/events?access_token=not-a-token', {}],
      ['/v2/events', { authorization: 'Bearer not-a-token' }],
      [`/v2/events?access_token=${aliceToken}`, { authorization: `Basic ${aliceToken}` }],
    ] as const) {
      const connection = await openEventStream(`${api.url}${path}`, headers);
      assert.equal(connection.status, 401, path);
      assert.equal(connection.headers['content-type'], PROBLEM_JSON);
      assert.equal((JSON.parse(await connection.text()) as { status: number }).status, 401);
    }
  });

  test('a token in the access_token query parameter opens the stream, with the SSE headers and a retry hint', async () => {
    const connection = await listen(aliceToken, { viaQuery: true });
    assert.equal(connection.headers['content-type'], 'text/event-stream');
    assert.equal(connection.headers['cache-control'], 'no-cache');
    assert.equal(connection.headers['x-accel-buffering'], 'no');
    await patch(aliceToken, aliceMail[0], { flagged: true });
    assert.equal((await connection.next()).event, 'mail.updated');
    assert.ok((connection.retryMs() ?? 0) > 0, 'a retry hint came first');
    connection.close();
  });

  test('PATCH and DELETE of a mail are announced with the mail’s new state', async () => {
    const connection = await listen(aliceToken);
    const mailId = aliceMail[1];
    await patch(aliceToken, mailId, { seen: true, important: true });
    assert.deepEqual(withoutId(parsed(await connection.next())), { type: 'mail.updated', mailIds: [mailId], changes: { seen: true, important: true } });
    await patch(aliceToken, mailId, { mailboxId: projects });
    assert.deepEqual(withoutId(parsed(await connection.next())), { type: 'mail.updated', mailIds: [mailId], changes: { mailboxId: projects } });
    await remove(mailId);
    assert.deepEqual(withoutId(parsed(await connection.next())), {
      type: 'mail.updated',
      mailIds: [mailId],
      changes: { mailboxId: alice.mailboxes.trash },
    });
    await remove(mailId);
    assert.deepEqual(withoutId(parsed(await connection.next())), { type: 'mail.deleted', mailIds: [mailId] });
    connection.close();
  });

  test('a mail.created published as the ingest worker does reaches the user', async () => {
    const connection = await listen(aliceToken);
    await ingest.publish(alice.id, created(991, alice.mailboxes.inbox));
    assert.deepEqual(withoutId(parsed(await connection.next())), created(991, alice.mailboxes.inbox));
    connection.close();
  });

  test('another user’s events never arrive', async () => {
    const aliceStream = await listen(aliceToken);
    const bobStream = await listen(bobToken);
    await patch(bobToken, bobMail, { flagged: true });
    await ingest.publish(bob.id, created(992, bob.mailboxes.inbox));
    await ingest.publish(alice.id, created(993, alice.mailboxes.inbox));
    // One channel delivers in order: Bob's events, published first, would have come before Alice's.
    assert.deepEqual(withoutId(parsed(await aliceStream.next())), created(993, alice.mailboxes.inbox));
    assert.deepEqual(withoutId(parsed(await bobStream.next())), { type: 'mail.updated', mailIds: [bobMail], changes: { flagged: true } });
    assert.deepEqual(withoutId(parsed(await bobStream.next())), created(992, bob.mailboxes.inbox));
    aliceStream.close();
    bobStream.close();
  });

  test('a reconnect with Last-Event-ID, as a header or a query parameter, gets only the events missed, then live ones', async () => {
    const first = await listen(aliceToken);
    await ingest.publish(alice.id, created(1001, alice.mailboxes.inbox));
    const seen = parsed(await first.next());
    first.close();

    await patch(aliceToken, aliceMail[2], { seen: true });
    await ingest.publish(alice.id, created(1002, alice.mailboxes.inbox));
    const viaHeader = await listen(aliceToken, { lastEventId: seen.id });
    const missed = [parsed(await viaHeader.next()), parsed(await viaHeader.next())];
    assert.deepEqual(missed.map(withoutId), [{ type: 'mail.updated', mailIds: [aliceMail[2]], changes: { seen: true } }, created(1002, alice.mailboxes.inbox)]);
    await ingest.publish(alice.id, created(1003, alice.mailboxes.inbox));
    assert.deepEqual(withoutId(parsed(await viaHeader.next())), created(1003, alice.mailboxes.inbox), 'live after the missed ones, none twice');
    viaHeader.close();

    const viaQuery = await openEventStream(`${api.url}/v2/events?lastEventId=${missed[1].id}`, { authorization: `Bearer ${aliceToken}` });
    opened.push(viaQuery);
    assert.deepEqual(withoutId(parsed(await viaQuery.next())), created(1003, alice.mailboxes.inbox));
    await ingest.publish(alice.id, created(1004, alice.mailboxes.inbox));
    assert.deepEqual(withoutId(parsed(await viaQuery.next())), created(1004, alice.mailboxes.inbox));
    viaQuery.close();
  });

  test('a Last-Event-ID the history no longer holds is answered with resync, then live events', async () => {
    await ingest.publish(alice.id, created(1100, alice.mailboxes.inbox));
    const connection = await listen(aliceToken, { lastEventId: '1-0' });
    const resync = await connection.next();
    assert.equal(resync.event, 'resync');
    assert.deepEqual(JSON.parse(resync.data), { type: 'resync' });
    const [[newest]] = await redis.xrevrange(`${prefix}:events:user:${alice.id}`, '+', '-', 'COUNT', 1);
    assert.equal(resync.id, newest, 'resync carries the id to resume from after refetching');
    await ingest.publish(alice.id, created(1101, alice.mailboxes.inbox));
    assert.deepEqual(withoutId(parsed(await connection.next())), created(1101, alice.mailboxes.inbox));
    connection.close();
  });

  test('a malformed Last-Event-ID, or an unknown parameter, is a 400 naming it', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/v2/events', { 'last-event-id': 'abc' }, 'header.last-event-id'],
      ['/v2/events', { 'last-event-id': '1-0, 2-0' }, 'header.last-event-id'],
      ['/v2/events?lastEventId=99999999999999999999999-0', {}, 'query.lastEventId'],
      ['/v2/events?since=1', {}, 'query.since'],
    ];
    for (const [path, headers, field] of cases) {
      const connection = await openEventStream(`${api.url}${path}`, { authorization: `Bearer ${aliceToken}`, ...headers });
      assert.equal(connection.status, 400, path);
      assert.equal(connection.headers['content-type'], PROBLEM_JSON);
      const problem = JSON.parse(await connection.text()) as { errors: Array<{ field: string }> };
      assert.deepEqual(
        problem.errors.map((error) => error.field),
        [field],
      );
    }
  });

  test('streams that closed leave nothing behind in the fan-out', async () => {
    const feed = api.app.get(UserEventFeed);
    await allClosed(feed);
    const streams = [await listen(aliceToken), await listen(aliceToken, { viaQuery: true }), await listen(bobToken)];
    assert.equal(feed.followerCount(), 3);
    assert.deepEqual(feed.followedUsers().sort(), [alice.id, bob.id].sort());
    for (const stream of streams) stream.close();
    await allClosed(feed);
    assert.deepEqual(feed.followedUsers(), []);
  });

  test('each API process subscribes on its own: a change through one reaches a stream on another', async () => {
    const other = await startApi({ QUEUE_PREFIX: prefix });
    try {
      const connection = await listen(aliceToken, { on: other });
      await patch(aliceToken, aliceMail[3], { flagged: true });
      assert.deepEqual(withoutId(parsed(await connection.next())), { type: 'mail.updated', mailIds: [aliceMail[3]], changes: { flagged: true } });
      connection.close();
    } finally {
      await other.close();
    }
  });

  test('shutting the API down ends its open streams instead of waiting for them', async () => {
    const other = await startApi({ QUEUE_PREFIX: prefix });
    const connection = await listen(aliceToken, { on: other });
    await other.close();
    assert.equal((await connection.next()).event, 'error');
    await connection.ended();
  });

  test('when the subscriber connection drops, streams end with an error event, and resume from their last event', async () => {
    const connection = await listen(aliceToken);
    await ingest.publish(alice.id, created(1200, alice.mailboxes.inbox));
    const last = parsed(await connection.next());
    const clients = String(await redis.client('LIST'));
    const subscriberIds = [...clients.matchAll(/id=(\d+) [^\n]* name=(\S+)/g)]
      .filter((match) => match[2] === `letterbox-read-api-events-${prefix}`)
      .map((match) => match[1]);
    assert.equal(subscriberIds.length, 1, 'one subscriber connection however many streams are open');
    await redis.client('KILL', 'ID', subscriberIds[0]);
    const error = await connection.next();
    assert.equal(error.event, 'error');
    assert.match(JSON.parse(error.data).detail, /reconnect/);
    await connection.ended();

    await ingest.publish(alice.id, created(1201, alice.mailboxes.inbox));
    for (let attempt = 0; ; attempt++) {
      const resumed = await listen(aliceToken, { lastEventId: last.id });
      const next = await resumed.next();
      resumed.close();
      if (next.event === 'error' && attempt < 20) continue; // Redis is still being reconnected to
      assert.deepEqual(withoutId(parsed(next)), created(1201, alice.mailboxes.inbox));
      break;
    }
  });

  test('with Redis unreachable, changes still succeed and a stream ends with an error event', async () =>
    withFaultsExpected(async () => {
      const cut = await startApi({ QUEUE_PREFIX: prefix, REDIS_URL: 'redis://127.0.0.1:1' });
      try {
        const response = await fetch(`${cut.url}/v2/mails/${aliceMail[0]}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${aliceToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ flagged: false }),
        });
        assert.equal(response.status, 200);
        assert.equal(((await response.json()) as { flagged: boolean }).flagged, false);
        const connection = await listen(aliceToken, { on: cut });
        assert.equal((await connection.next()).event, 'error');
        await connection.ended();
      } finally {
        await cut.close();
      }
    }));
  test('a user may hold only so many streams open at once: a new one closes an older one; others and the user’s own requests still answer', async () => {
    const capped = await startApi({ QUEUE_PREFIX: prefix, EVENT_STREAMS_PER_USER: '2' });
    try {
      const first = await listen(aliceToken, { on: capped });
      const second = await listen(aliceToken, { on: capped });
      const third = await listen(aliceToken, { on: capped });
      const closed = await first.next();
      assert.equal(closed.event, 'error');
      assert.match((JSON.parse(closed.data) as { detail: string }).detail, /at most 2 may be open/);
      await first.ended();
      await listen(bobToken, { on: capped });
      const list = await fetch(`${capped.url}/v2/mails?limit=1`, { headers: { authorization: `Bearer ${aliceToken}` } });
      assert.equal(list.status, 200);
      await ingest.publish(alice.id, created(1300, alice.mailboxes.inbox));
      for (const open of [second, third]) assert.deepEqual(withoutId(parsed(await open.next())), created(1300, alice.mailboxes.inbox));
    } finally {
      for (const connection of opened) connection.close();
      await capped.close();
    }
  });

  test('a stream ends with an error event when its token expires', async () => {
    const { AUTH_TOKEN_SECRET, AUTH_TOKEN_TTL_SECONDS } = loadReadApiConfig();
    const almostExpired = new AccessTokens(AUTH_TOKEN_SECRET, AUTH_TOKEN_TTL_SECONDS).issue(
      { userId: alice.id, officeId: alice.officeId, tokenVersion: 0 },
      Date.now() - (AUTH_TOKEN_TTL_SECONDS - 1) * 1000,
    ).accessToken;
    const connection = await listen(almostExpired);
    const event = await connection.next();
    assert.equal(event.event, 'error');
    assert.match(event.data, /expired/);
    await connection.ended();
    const again = await openEventStream(`${api.url}/v2/events`, { authorization: `Bearer ${almostExpired}` });
    assert.equal(again.status, 401);
  });
});
