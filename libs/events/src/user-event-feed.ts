import { whenReady, type RedisConnection } from '@letterbox/redis';
import { EventFollower, type UserEventSink } from './event-follower';
import { historySince } from './event-history';
import { eventKeys } from './event-keys';
import { parseLiveMessage, userIdOfLiveMessage } from './live-message';
import { EventsUnavailableError } from './events-unavailable-error';
import { loggerFor } from '@letterbox/observability';

const logger = loggerFor('events');

/**
 * The reading side: one subscriber connection per process, whose live events fan out in
 * process to the open streams of each user. A stream resuming from an id is subscribed
 * before the history is read, so no event falls between the two.
 */
export class UserEventFeed {
  private readonly keys: ReturnType<typeof eventKeys>;
  private readonly followers = new Map<number, Set<EventFollower>>();
  private subscription: Promise<void> | undefined;
  private closing = false;

  /**
   * `subscriber` is this feed's own connection (see eventSubscriberConnection); `commands`
   * reads the history and may be shared. `prefix` must be the one UserEvents publishes under.
   */
  constructor(
    private readonly subscriber: RedisConnection,
    private readonly commands: RedisConnection,
    prefix: string,
  ) {
    this.keys = eventKeys(prefix);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.keys.live) this.deliver(message);
    });
    subscriber.on('close', () => this.breakAll(new EventsUnavailableError('the connection to Redis was lost')));
    // A cluster listens on one of its nodes, and ioredis moves the subscription to another when a node goes,
    // without a 'close': what was published meanwhile is lost to it just the same.
    subscriber.on('-node', () => this.breakAll(new EventsUnavailableError('a node of the Redis Cluster was lost')));
  }

  /**
   * Sends the user's events to `sink`: first those after `lastEventId` (or a resync), then
   * live ones. Failures reach the sink as `broken`, never as a rejection. The function
   * returned stops it; call it when the client goes.
   */
  async follow(userId: number, sink: UserEventSink, lastEventId?: string): Promise<() => void> {
    const follower = new EventFollower(sink, lastEventId);
    const stop = () => this.remove(userId, follower);
    if (this.closing) {
      sink.broken(new EventsUnavailableError('the server is shutting down'));
      return stop;
    }
    this.add(userId, follower);
    try {
      await this.subscribed();
      if (lastEventId !== undefined) {
        const history = await historySince(this.commands, this.keys.history(userId), lastEventId);
        follower.catchUp(history);
      }
    } catch (error) {
      this.fail(userId, follower, error as Error);
    }
    return stop;
  }

  /** Streams open in this process. */
  followerCount(): number {
    let count = 0;
    for (const followers of this.followers.values()) count += followers.size;
    return count;
  }

  /** Users with a stream open in this process. */
  followedUsers(): number[] {
    return [...this.followers.keys()];
  }

  /** Ends every stream (their clients reconnect, to another process if this one is stopping) and takes no more. */
  close(): void {
    this.closing = true;
    this.breakAll(new EventsUnavailableError('the server is shutting down'));
  }

  private subscribed(): Promise<void> {
    if (!this.subscription) {
      const subscription = whenReady(this.subscriber, EventsUnavailableError).then(async () => void (await this.subscriber.subscribe(this.keys.live)));
      subscription.catch(() => {
        if (this.subscription === subscription) this.subscription = undefined;
      });
      this.subscription = subscription;
    }
    return this.subscription;
  }

  private deliver(message: string): void {
    const userId = userIdOfLiveMessage(message);
    const followers = this.followers.get(userId);
    if (!followers) return;
    const { id, event } = parseLiveMessage(message);
    for (const follower of followers) {
      try {
        follower.receive(id, event);
      } catch (error) {
        // One stream's failure must not stop the others' events.
        logger.warn({ userId, err: error }, `a stream of user ${userId} failed`);
        this.fail(userId, follower, error as Error);
      }
    }
  }

  private breakAll(error: Error): void {
    this.subscription = undefined;
    for (const [userId, followers] of this.followers) {
      for (const follower of followers) this.fail(userId, follower, error);
    }
  }

  private add(userId: number, follower: EventFollower): void {
    const followers = this.followers.get(userId) ?? new Set();
    followers.add(follower);
    this.followers.set(userId, followers);
  }

  private remove(userId: number, follower: EventFollower): void {
    follower.stopped = true;
    const followers = this.followers.get(userId);
    if (!followers?.delete(follower)) return;
    if (followers.size === 0) this.followers.delete(userId);
  }

  private fail(userId: number, follower: EventFollower, error: Error): void {
    if (follower.stopped) return;
    this.remove(userId, follower);
    follower.sink.broken(error);
  }
}
