import { Inject, Injectable, Logger } from '@nestjs/common';
import type { UserWrites } from '@letterbox/db';
import { UserEvents, type MailEvent } from '@letterbox/events';
import { READ_ROUTING } from '@letterbox/nest-infrastructure';

/**
 * Announces a change the read API has committed. The write is recorded first: the user's
 * other clients refetch on the event, from any process, and must read the change (the
 * request's own recording, after its handler, would come too late for them). A failure to announce is logged and
 * does not fail the request: the change stands, and the open streams, which Redis's
 * trouble ends too, make their clients reconnect.
 */
@Injectable()
export class MailEventAnnouncer {
  private readonly logger = new Logger('events');

  constructor(
    private readonly events: UserEvents,
    @Inject(READ_ROUTING) private readonly writes: UserWrites,
  ) {}

  announce(userId: number, event: MailEvent): Promise<void> {
    return this.announceAll(userId, [event]);
  }

  async announceAll(userId: number, events: MailEvent[]): Promise<void> {
    await this.writes.record([userId]);
    try {
      await this.events.publishAll(events.map((event) => ({ userId, event })));
    } catch (error) {
      const types = events.map((event) => event.type).join(', ');
      this.logger.error(`${types} for user ${userId} was not announced: ${(error as Error).message}`);
    }
  }
}
