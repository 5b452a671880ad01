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

  async announce(userId: number, event: MailEvent): Promise<void> {
    try {
      await this.events.publish(userId, event);
    } catch (error) {
      this.logger.error(`${event.type} for user ${userId} was not announced: ${(error as Error).message}`);
    }
  }
}
