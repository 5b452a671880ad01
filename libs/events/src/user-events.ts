import type { ChainableCommander } from 'ioredis';
import { whenReady, type RedisConnection } from '@letterbox/redis';
import { eventKeys } from './event-keys';
import type { MailEvent } from './mail-events';
import { EventsUnavailableError } from './events-unavailable-error';

/**
 * Records an event in the user's history and announces it live, in one script: the id
 * the history gives the event is the id subscribers see, and subscribers see events in
 * history order, so a client resuming from an id misses nothing and sees nothing twice.
 * The live message's format is read by parseLiveMessage. The channel is not a key: in a
 * Redis Cluster a PUBLISH reaches the subscribers on every node, and the script touches
 * only the one key, in whichever slot it lies.
 * KEYS[1]: the user's history. ARGV: live channel, history length, history TTL (s), user id, event JSON.
 */
const PUBLISH_EVENT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'event', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[1], ARGV[4] .. ' ' .. id .. ' ' .. ARGV[5])
return id
`;

/** How much of a user's history is kept for resuming: about `maxLength` events, none quiet longer than `ttlSeconds`. */
export interface EventRetention {
  maxLength: number;
  ttlSeconds: number;
}

const DEFAULT_RETENTION: EventRetention = { maxLength: 1000, ttlSeconds: 24 * 60 * 60 };

const COMMAND = 'letterboxPublishUserEvent';

type WithPublishCommand = ChainableCommander & {
  [COMMAND](history: string, live: string, maxLength: number, ttlSeconds: number, userId: number, event: string): WithPublishCommand;
};

/** Publishes mail events to their users' open streams, from any process (the read API, the ingest worker). */
export class UserEvents {
  private readonly keys: ReturnType<typeof eventKeys>;

  /**
   * `redis` is a command connection (not a subscriber); `prefix` namespaces the keys and
   * must be the one the reading side uses.
   */
  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    private readonly retention: EventRetention = DEFAULT_RETENTION,
  ) {
    this.keys = eventKeys(prefix);
    // Sent by hash, and loaded into Redis only when it does not have it yet.
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: PUBLISH_EVENT });
  }

  publish(userId: number, event: MailEvent): Promise<void> {
    return this.publishAll([{ userId, event }]);
  }

  /**
   * Many events in about one round trip; each user's events keep the order given. One pipeline per user, all
   * sent together: in a Redis Cluster a pipeline may not span nodes, and the users' histories lie on several.
   */
  async publishAll(entries: Array<{ userId: number; event: MailEvent }>): Promise<void> {
    if (entries.length === 0) return;
    for (const { userId } of entries) {
      if (!Number.isSafeInteger(userId) || userId < 1) throw new RangeError(`user id must be a positive whole number, got ${userId}`);
    }
    await whenReady(this.redis, EventsUnavailableError);
    const { maxLength, ttlSeconds } = this.retention;
    const pipelines = new Map<number, WithPublishCommand>();
    for (const { userId, event } of entries) {
      const pipeline = pipelines.get(userId) ?? (this.redis.pipeline() as WithPublishCommand);
      pipelines.set(userId, pipeline[COMMAND](this.keys.history(userId), this.keys.live, maxLength, ttlSeconds, userId, JSON.stringify(event)));
    }
    const results = await Promise.all([...pipelines.values()].map((pipeline) => pipeline.exec()));
    const failure = results.flatMap((result) => result ?? []).find(([error]) => error)?.[0];
    if (failure) throw failure;
  }
}
