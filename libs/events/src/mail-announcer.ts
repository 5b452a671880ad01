import type { Logger } from 'pino';
import type { UserWrites } from '@letterbox/db';
import { loggerFor } from '@letterbox/observability';
import type { RedisConnection } from '@letterbox/redis';
import type { MailEvent } from './mail-events';
import { UserEvents } from './user-events';

/** An event for one user's clients. */
export interface UserMailEvent {
  userId: number;
  event: MailEvent;
}

/**
 * Tells a user's open clients about mail changed, moved or stored, from any process. The
 * users' writes are recorded first: their clients refetch on the event, from any process,
 * and must read the change even from a replica (the recording a request makes after its
 * handler would come too late for them).
 */
export class MailAnnouncer {
  constructor(
    private readonly events: UserEvents,
    private readonly writes: UserWrites,
    private readonly logger: Logger = loggerFor('events'),
  ) {}

  /**
   * For a change that stands whatever becomes of its announcement: a failure to publish is
   * logged, not thrown. The open streams, which Redis's trouble ends too, make their
   * clients reconnect, and lists show the change on their next refresh.
   */
  async announce(announcements: UserMailEvent[]): Promise<void> {
    const userIds = usersOf(announcements);
    await this.writes.record(userIds);
    try {
      await this.events.publishAll(announcements);
    } catch (error) {
      const types = [...new Set(announcements.map(({ event }) => event.type))].join(', ');
      this.logger.error({ err: error, userIds }, `${types} for user ${userIds.join(', ')} was not announced`);
    }
  }

  /**
   * For a caller that repeats the whole when it fails (a batch of incoming mail, whose retry
   * announces its mail again): a failure to publish is thrown. `alongside` runs while the
   * events are published, once the writes are recorded: what else makes a client fetch the
   * mail (a push notification).
   */
  async announceOrThrow(announcements: UserMailEvent[], alongside: () => Promise<void>): Promise<void> {
    await this.writes.record(usersOf(announcements));
    await Promise.all([this.events.publishAll(announcements), alongside()]);
  }
}

export interface MailAnnouncerOptions {
  /** A command connection that fails fast while Redis is away; its owner closes it. */
  redis: RedisConnection;
  /** QUEUE_PREFIX: the namespace the reading side follows. */
  queuePrefix: string;
  writes: UserWrites;
}

/** The announcer of a process that publishes and does not follow events (a worker, the send API). */
export function createMailAnnouncer({ redis, queuePrefix, writes }: MailAnnouncerOptions): MailAnnouncer {
  return new MailAnnouncer(new UserEvents(redis, queuePrefix), writes);
}

function usersOf(announcements: UserMailEvent[]): number[] {
  return [...new Set(announcements.map(({ userId }) => userId))];
}
