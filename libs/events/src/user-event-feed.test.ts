import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import type { MailEvent } from './mail-events';
import { EventsUnavailableError } from './events-unavailable-error';
import { eventSubscriberConnection } from './event-connections';
import { RecordingSink } from './testing/recording-sink';
import { UserEventFeed } from './user-event-feed';
import { UserEvents } from './user-events';
import { redisTargets, unlinkKeys, waitFor, withFaultsExpected } from '@letterbox/testing';

const created = (mailId: number): MailEvent => ({ type: 'mail.created', mailId, mailboxId: 1 });

for (const { name, target } of redisTargets()) {
  describe(`following users’ events in one process, against ${name}`, () => {
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const subscriberName = `${prefix}-subscriber`;
    const commands = failFastConnection(target, 'redis events');
    const subscriber = eventSubscriberConnection(target, subscriberName);
    const events = new UserEvents(commands, prefix);
    const feed = new UserEventFeed(subscriber, commands, prefix);
    const otherConnections: RedisConnection[] = [];
    // These drive one connection's faults by hand; a cluster's subscriber is ioredis's own, on a node it picks.
    const oneRedisOnly = { skip: target.REDIS_CLUSTER_NODES ? 'a fault of one connection to one Redis' : false };
    let nextUserId = 1;
    const newUser = () => nextUserId++;
    const keptIds = async (userId: number) => (await commands.xrange(`${prefix}:events:user:${userId}`, '-', '+')).map(([id]) => id);

    after(async () => {
      feed.close();
      await unlinkKeys(commands, `${prefix}:*`);
      for (const connection of [commands, subscriber, ...otherConnections]) connection.disconnect();
    });

    /**
     * Publishes to `userId`, then waits for an event published after it to another user:
     * one channel delivers in order, so by then the first has had every chance to arrive.
     */
    async function publishThenSettle(userId: number, event: MailEvent): Promise<void> {
      const settle = newUser();
      const sentinel = new RecordingSink();
      const stop = await feed.follow(settle, sentinel);
      await events.publish(userId, event);
      await events.publish(settle, created(0));
      await waitFor(() => sentinel.events.length === 1, { what: 'the event published after it arrived', timeoutMs: 10_000, intervalMs: 25 });
      stop();
    }

    test('every open stream of a user gets the user’s events, and only theirs', async () => {
      const [user, other] = [newUser(), newUser()];
      const [first, second, others] = [new RecordingSink(), new RecordingSink(), new RecordingSink()];
      const stops = [await feed.follow(user, first), await feed.follow(user, second), await feed.follow(other, others)];
      await events.publish(other, created(1));
      await events.publish(user, created(2));
      await waitFor(() => first.events.length === 1 && second.events.length === 1, {
        what: 'both streams of the user got its event',
        timeoutMs: 10_000,
        intervalMs: 25,
      });
      await waitFor(() => others.events.length === 1, { what: 'the other user got theirs', timeoutMs: 10_000, intervalMs: 25 });
      for (const stop of stops) stop();
      assert.deepEqual(
        [first, second].map((sink) => sink.events.map(({ event }) => event)),
        [[created(2)], [created(2)]],
      );
      assert.deepEqual(
        others.events.map(({ event }) => event),
        [created(1)],
      );
    });

    test('streams resuming while events are being published get each later event once, in order', async () => {
      const userId = newUser();
      let published = 0;
      const publishTen = () => Promise.all(Array.from({ length: 10 }, () => events.publish(userId, created(++published))));
      for (let batch = 0; batch < 3; batch++) await publishTen();
      const resumes: Array<{ from: string; sink: RecordingSink; stop: () => void }> = [];
      // Each stream resumes while ten publishes are in flight, whatever the machine's speed.
      for (let round = 0; round < 12; round++) {
        const inFlight = publishTen();
        const from = (await keptIds(userId)).at(-1) as string;
        const sink = new RecordingSink();
        resumes.push({ from, sink, stop: await feed.follow(userId, sink, from) });
        await inFlight;
      }
      for (let batch = 0; batch < 3; batch++) await publishTen();
      const ids = await keptIds(userId);
      assert.equal(ids.length, published);
      for (const { from, sink, stop } of resumes) {
        const expected = ids.slice(ids.indexOf(from) + 1);
        await waitFor(() => sink.events.length >= expected.length, { what: `the stream resumed from ${from} caught up`, timeoutMs: 10_000, intervalMs: 25 });
        stop();
        assert.deepEqual(sink.ids(), expected, `resumed from ${from}`);
        assert.deepEqual(sink.resyncs, []);
      }
    });

    test('a stream stopped is let go: the fan-out holds no one, and it gets nothing more', async () => {
      const [user, other] = [newUser(), newUser()];
      const sinks = [new RecordingSink(), new RecordingSink(), new RecordingSink()];
      const stops = [await feed.follow(user, sinks[0]), await feed.follow(user, sinks[1]), await feed.follow(other, sinks[2], '1-0')];
      assert.equal(feed.followerCount(), 3);
      assert.deepEqual(feed.followedUsers().sort(), [user, other].sort());
      for (const stop of stops) stop();
      stops[0]();
      assert.equal(feed.followerCount(), 0);
      assert.deepEqual(feed.followedUsers(), []);
      await publishThenSettle(user, created(1));
      assert.deepEqual(
        sinks.map((sink) => sink.events.length),
        [0, 0, 0],
      );
      assert.deepEqual(feed.followedUsers(), []);
    });

    test('a stream whose sink fails is dropped without stopping the others', async () =>
      withFaultsExpected(async () => {
        const userId = newUser();
        const healthy = new RecordingSink();
        const failing = new RecordingSink();
        failing.event = () => {
          throw new Error('the client is gone');
        };
        await feed.follow(userId, failing);
        const stop = await feed.follow(userId, healthy);
        await events.publish(userId, created(1));
        await waitFor(() => healthy.events.length === 1, { what: 'the healthy stream got the event', timeoutMs: 10_000, intervalMs: 25 });
        assert.match(failing.brokenBy?.message ?? '', /the client is gone/);
        assert.equal(feed.followerCount(), 1);
        stop();
      }));

    test('when the subscriber connection drops, every stream breaks; the next one subscribes again', oneRedisOnly, async () =>
      withFaultsExpected(async () => {
        const userId = newUser();
        const before = [new RecordingSink(), new RecordingSink()];
        for (const sink of before) await feed.follow(userId, sink);
        const clients = await commands.client('LIST');
        const clientId = /id=(\d+) [^\n]* name=(\S+)/g;
        const ids = [...String(clients).matchAll(clientId)].filter((match) => match[2] === subscriberName).map((match) => match[1]);
        assert.equal(ids.length, 1);
        await commands.client('KILL', 'ID', ids[0]);
        await waitFor(() => before.every((sink) => sink.brokenBy instanceof EventsUnavailableError), {
          what: 'both streams broke',
          timeoutMs: 10_000,
          intervalMs: 25,
        });
        assert.deepEqual(feed.followedUsers(), []);

        const renewed = new RecordingSink();
        await waitFor(
          async () => {
            renewed.brokenBy = undefined;
            const stop = await feed.follow(userId, renewed);
            if (renewed.brokenBy) return false;
            await events.publish(userId, created(2));
            await waitFor(() => renewed.events.length === 1, { what: 'the event after reconnecting arrived', timeoutMs: 10_000, intervalMs: 25 });
            stop();
            return true;
          },
          { what: 'a stream opened after the reconnect worked', timeoutMs: 10_000, intervalMs: 25 },
        );
        assert.deepEqual(renewed.events[0].event, created(2));
      }),
    );

    test('with Redis unreachable a stream breaks instead of waiting for it, and the fan-out holds no one', oneRedisOnly, async () =>
      withFaultsExpected(async () => {
        const unreachable = { REDIS_URL: 'redis://127.0.0.1:1' };
        const down = failFastConnection(unreachable, 'redis events');
        const refusals: Error[] = [];
        down.on('error', (error: Error) => refusals.push(error));
        const downSubscriber = eventSubscriberConnection(unreachable, `${prefix}-unreachable`);
        otherConnections.push(down, downSubscriber);
        const lonely = new UserEventFeed(downSubscriber, down, prefix);
        const sink = new RecordingSink();
        await lonely.follow(newUser(), sink, '1-0');
        assert.ok(sink.brokenBy instanceof EventsUnavailableError, String(sink.brokenBy));
        assert.equal(lonely.followerCount(), 0);
        await assert.rejects(new UserEvents(down, prefix).publish(1, created(1)), EventsUnavailableError);
        assert.match(String(refusals[0]), /ECONNREFUSED/);
      }),
    );

    test('closing the feed ends every stream and refuses new ones', async () => {
      const subscriberOfClosing = eventSubscriberConnection(target, `${prefix}-closing`);
      otherConnections.push(subscriberOfClosing);
      const closing = new UserEventFeed(subscriberOfClosing, commands, prefix);
      const open = new RecordingSink();
      await closing.follow(newUser(), open);
      closing.close();
      assert.match(open.brokenBy?.message ?? '', /shutting down/);
      const late = new RecordingSink();
      await closing.follow(newUser(), late);
      assert.ok(late.brokenBy instanceof EventsUnavailableError);
      assert.equal(closing.followerCount(), 0);
    });
  });
}
