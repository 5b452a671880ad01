import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { compareEventIds } from './event-ids';
import type { MailEvent } from './mail-events';
import { eventSubscriberConnection } from './event-connections';
import { RecordingSink } from './testing/recording-sink';
import { UserEventFeed } from './user-event-feed';
import { UserEvents } from './user-events';
import { redisTargets, unlinkKeys, waitFor } from '@letterbox/testing';

const created = (mailId: number): MailEvent => ({ type: 'mail.created', mailId, mailboxId: 1 });

for (const { name, target } of redisTargets()) {
  describe(`publishing and replaying a user’s events against ${name}`, () => {
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const commands = failFastConnection(target, 'redis events');
    const events = new UserEvents(commands, prefix);
    const subscriber = eventSubscriberConnection(target, `${prefix}-subscriber`);
    const feed = new UserEventFeed(subscriber, commands, prefix);
    const extraConnections: RedisConnection[] = [];
    let nextUserId = 1;
    const newUser = () => nextUserId++;
    const history = (userId: number) => `${prefix}:events:user:${userId}`;
    const keptIds = async (userId: number) => (await commands.xrange(history(userId), '-', '+')).map(([id]) => id);

    after(async () => {
      feed.close();
      await unlinkKeys(commands, `${prefix}:*`);
      for (const connection of [commands, subscriber, ...extraConnections]) connection.disconnect();
    });

    async function resume(userId: number, lastEventId: string): Promise<RecordingSink> {
      const sink = new RecordingSink();
      const stop = await feed.follow(userId, sink, lastEventId);
      stop();
      return sink;
    }

    test('a resume replays the events after the id given, in the order published, without that one', async () => {
      const userId = newUser();
      for (let mailId = 1; mailId <= 5; mailId++) await events.publish(userId, created(mailId));
      const ids = await keptIds(userId);
      assert.equal(ids.length, 5);

      const sink = await resume(userId, ids[1]);
      assert.deepEqual(sink.ids(), ids.slice(2));
      assert.deepEqual(
        sink.events.map(({ event }) => event),
        [created(3), created(4), created(5)],
      );
      assert.deepEqual(sink.resyncs, []);

      const upToDate = await resume(userId, ids[4]);
      assert.deepEqual(upToDate.events, []);
      assert.deepEqual(upToDate.resyncs, [], 'the newest id is a resume with nothing to replay');
    });

    test('publishAll keeps each user’s events in the order given, in that user’s own history, which expires', async () => {
      const [first, second] = [newUser(), newUser()];
      const moved: MailEvent = { type: 'mail.updated', mailIds: [7, 8], changes: { mailboxId: 3, seen: true } };
      await events.publishAll([
        { userId: first, event: created(1) },
        { userId: second, event: moved },
        { userId: first, event: { type: 'mail.deleted', mailIds: [1] } },
      ]);
      const firstIds = await keptIds(first);
      assert.deepEqual((await resume(first, '0-0')).resyncs, [firstIds[1]], 'an id that was never given is a resync, not a replay');
      const replayed = (await resume(first, firstIds[0])).events.map(({ event }) => event);
      assert.deepEqual(replayed, [{ type: 'mail.deleted', mailIds: [1] }]);
      const [[, fields]] = await commands.xrange(history(second), '-', '+');
      assert.deepEqual(JSON.parse(fields[1]), moved);
      const ttl = await commands.ttl(history(first));
      assert.ok(ttl > 0 && ttl <= 24 * 60 * 60, `the history expires within a day, ttl ${ttl}`);
      await events.publishAll([]);
    });

    test('a resume from before the kept history is a resync, with the newest id to resume from', async () => {
      const userId = newUser();
      const small = new UserEvents(commands, prefix, { maxLength: 10, ttlSeconds: 60 });
      await small.publish(userId, created(0));
      const [oldest] = await keptIds(userId);
      // Trimming is approximate (whole nodes of about a hundred entries), so publish well past it.
      await small.publishAll(Array.from({ length: 300 }, (_, index) => ({ userId, event: created(index + 1) })));
      const kept = await keptIds(userId);
      assert.ok(kept.length < 301 && kept[0] !== oldest, `the oldest events were trimmed (kept ${kept.length})`);

      const sink = await resume(userId, oldest);
      assert.deepEqual(sink.resyncs, [kept.at(-1)]);
      assert.deepEqual(sink.events, [], 'nothing is replayed over a gap');

      const recent = await resume(userId, kept.at(-3) as string);
      assert.deepEqual(recent.resyncs, []);
      assert.deepEqual(recent.ids(), kept.slice(-2), 'an id still kept resumes as usual');
    });

    test('a resume from an id the history does not hold (expired, or never given) is a resync', async () => {
      const userId = newUser();
      await events.publish(userId, created(1));
      const [id] = await keptIds(userId);
      await commands.del(history(userId));
      assert.deepEqual((await resume(userId, id)).resyncs, [undefined], 'no history at all: nothing to resume from');

      // An id is Redis's clock in milliseconds: a history started again within the same one would reuse the old id.
      await waitFor(() => Date.now() > Number(id.split('-')[0]), { what: 'the clock passed the old id', timeoutMs: 1_000, intervalMs: 1 });
      await events.publish(userId, created(2));
      const [newest] = await keptIds(userId);
      assert.deepEqual((await resume(userId, id)).resyncs, [newest], 'a history started afresh does not hold the old id');
      assert.deepEqual((await resume(userId, `${Date.now() + 86_400_000}-0`)).resyncs, [newest], 'nor one from the future');
    });

    test('after a resync the stream goes on live', async () => {
      const userId = newUser();
      const sink = new RecordingSink();
      const stop = await feed.follow(userId, sink, '1-0');
      assert.deepEqual(sink.resyncs, [undefined]);
      await events.publish(userId, created(1));
      await waitFor(() => sink.events.length === 1, { what: 'the live event arrived', timeoutMs: 10_000, intervalMs: 25 });
      stop();
      assert.deepEqual(sink.events[0].event, created(1));
    });

    test('concurrent publishers on separate connections get unique ids, in one order that every stream sees', async () => {
      const userId = newUser();
      const live = new RecordingSink();
      const stop = await feed.follow(userId, live);
      const publishers = Array.from({ length: 4 }, () => {
        const connection = failFastConnection(target, 'redis events');
        extraConnections.push(connection);
        return new UserEvents(connection, prefix);
      });
      await Promise.all(
        publishers.flatMap((publisher, index) => Array.from({ length: 50 }, (_, sequence) => publisher.publish(userId, created(index * 1000 + sequence)))),
      );
      const ids = await keptIds(userId);
      assert.equal(ids.length, 200);
      assert.equal(new Set(ids).size, 200);
      for (let index = 1; index < ids.length; index++) assert.ok(compareEventIds(ids[index - 1], ids[index]) < 0, 'ids increase');
      await waitFor(() => live.events.length === 200, { what: 'every event reached the live stream', timeoutMs: 10_000, intervalMs: 25 });
      stop();
      assert.deepEqual(live.ids(), ids, 'live order is history order');
      for (let index = 0; index < publishers.length; index++) {
        const own = live.events.map(({ event }) => (event as { mailId: number }).mailId).filter((mailId) => Math.floor(mailId / 1000) === index);
        assert.deepEqual(
          own,
          Array.from({ length: 50 }, (_, sequence) => index * 1000 + sequence),
          'each publisher’s events keep its order',
        );
      }
    });

    test('a user id that is not a positive whole number is refused before anything is published', async () => {
      for (const userId of [0, -1, 1.5, Number.NaN]) {
        await assert.rejects(
          events.publishAll([
            { userId: newUser(), event: created(1) },
            { userId, event: created(1) },
          ]),
          RangeError,
        );
      }
    });
  });
}
