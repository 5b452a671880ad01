import { Injectable, Logger } from '@nestjs/common';
import { UserEvents, type MailEvent } from '@letterbox/events';

/**
 * Announces a change the read API has committed. A failure to announce is logged and
 * does not fail the request: the change stands, and the open streams, which Redis's
 * trouble ends too, make their clients reconnect.
 */
@Injectable()
export class MailEventAnnouncer {
  private readonly logger = new Logger('events');

  constructor(private readonly events: UserEvents) {}

  announce(userId: number, event: MailEvent): Promise<void> {
    return this.announceAll(userId, [event]);
  }

  async announceAll(userId: number, events: MailEvent[]): Promise<void> {
    try {
      await this.events.publishAll(events.map((event) => ({ userId, event })));
    } catch (error) {
      const types = events.map((event) => event.type).join(', ');
      this.logger.error(`${types} for user ${userId} was not announced: ${(error as Error).message}`);
    }
  }
}
