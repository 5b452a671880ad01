import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { UserWrites } from '@letterbox/db';
import { failFastConnection, whenReady } from '@letterbox/redis';
import { unlinkKeys, logFaultsAsExpected } from '@letterbox/testing';
import { EventsUnavailableError } from './events-unavailable-error';
import { MailAnnouncer } from './mail-announcer';
import { mailCreatedEvents } from './mail-created-events';
import { UserEvents } from './user-events';

// Publishing to an unreachable Redis is what most of these tests do: its warnings are expected.
logFaultsAsExpected();

describe('MailAnnouncer', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const redis = failFastConnection(loadConfig(redisConfig), 'redis events');
  const unreachable = failFastConnection({ REDIS_URL: 'redis://127.0.0.1:1' }, 'redis events');
  unreachable.on('error', () => undefined);
  const events = new UserEvents(redis, prefix);
  let nextUserId = 1;
  const published = async (userId: number) =>
    (await redis.xrange(`${prefix}:events:user:${userId}`, '-', '+')).map(([, fields]) => JSON.parse(fields[1]) as unknown);

  before(() => whenReady(redis, Error));

  after(async () => {
    unreachable.disconnect();
    await unlinkKeys(redis, `${prefix}:*`);
    redis.disconnect();
  });

  /** Records which users' writes were recorded, and what each had published by then. */
  function recordingWrites() {
    const records: Array<{ userIds: number[]; publishedBefore: number }> = [];
    const writes: UserWrites = {
      async record(userIds) {
        const before = await Promise.all(userIds.map(published));
        records.push({ userIds, publishedBefore: before.flat().length });
      },
    };
    return { writes, records };
  }

  function capturedLogger() {
    const lines: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
        done();
      },
    });
    return { logger: pino(stream), lines };
  }

  test('records each user’s write once, before any event is published, then publishes each user’s events in order', async () => {
    const [alice, bob] = [nextUserId++, nextUserId++];
    const { writes, records } = recordingWrites();
    const announcements = mailCreatedEvents([
      { userId: alice, mailId: 1, mailboxId: 10 },
      { userId: bob, mailId: 2, mailboxId: 20 },
      { userId: alice, mailId: 3, mailboxId: 10 },
    ]);
    await new MailAnnouncer(events, writes).announce(announcements);
    assert.deepEqual(records, [{ userIds: [alice, bob], publishedBefore: 0 }]);
    assert.deepEqual(await published(alice), [
      { type: 'mail.created', mailId: 1, mailboxId: 10 },
      { type: 'mail.created', mailId: 3, mailboxId: 10 },
    ]);
    assert.deepEqual(await published(bob), [{ type: 'mail.created', mailId: 2, mailboxId: 20 }]);
  });

  test('a publish that fails is logged and not thrown: the change stands, and its write is recorded', async () => {
    const userId = nextUserId++;
    const { writes, records } = recordingWrites();
    const { logger, lines } = capturedLogger();
    const announcer = new MailAnnouncer(new UserEvents(unreachable, prefix), writes, logger);
    await announcer.announce([{ userId, event: { type: 'mail.updated', mailIds: [7], changes: { seen: true } } }]);
    assert.deepEqual(
      records.map(({ userIds }) => userIds),
      [[userId]],
    );
    assert.deepEqual(
      lines.map(({ level, msg }) => ({ level, msg })),
      [{ level: 50, msg: `mail.updated for user ${userId} was not announced` }],
    );
  });

  test('announceOrThrow runs what goes alongside once the writes are recorded, and throws a failed publish for its caller to retry', async () => {
    const userId = nextUserId++;
    const { writes, records } = recordingWrites();
    const order: string[] = [];
    const recorded: UserWrites = {
      async record(userIds) {
        await writes.record(userIds);
        order.push('recorded');
      },
    };
    await new MailAnnouncer(events, recorded).announceOrThrow(
      mailCreatedEvents([{ userId, mailId: 4, mailboxId: 40 }]),
      async () => void order.push('alongside'),
    );
    assert.deepEqual(order, ['recorded', 'alongside']);
    assert.deepEqual(await published(userId), [{ type: 'mail.created', mailId: 4, mailboxId: 40 }]);

    const failing = new MailAnnouncer(new UserEvents(unreachable, prefix), recorded);
    await assert.rejects(
      failing.announceOrThrow(mailCreatedEvents([{ userId, mailId: 5, mailboxId: 40 }]), async () => undefined),
      EventsUnavailableError,
    );
    assert.equal(records.length, 2);
  });
});
