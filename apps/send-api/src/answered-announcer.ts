import { Logger } from '@nestjs/common';
import type { UserWrites } from '@letterbox/db';
import type { RedisConnection } from '@letterbox/redis';
import { UserEvents } from '@letterbox/events';
import type { AnsweredMail } from '@letterbox/sending';

/**
 * Tells the user's open clients that a mail was answered or forwarded, once the send is
 * recorded; the write is recorded first, so the clients that refetch on the event read
 * it even from a replica. A failure is logged and the send stands: the flag is stored, and lists show
 * it on their next refresh.
 */
export class AnsweredAnnouncer {
  private readonly logger = new Logger('events');
  private readonly events: UserEvents;

  constructor(
    private readonly redis: RedisConnection,
    queuePrefix: string,
    private readonly writes: UserWrites,
  ) {
    this.events = new UserEvents(redis, queuePrefix);
  }

  async announce(userId: number, answering: AnsweredMail): Promise<void> {
    const changes = answering.mode === 'forward' ? { forwarded: true } : { answered: true };
    await this.writes.record([userId]);
    try {
      await this.events.publish(userId, { type: 'mail.updated', mailIds: [answering.mailId], changes });
    } catch (error) {
      this.logger.error(`mail.updated of mail ${answering.mailId} for user ${userId} was not announced: ${(error as Error).message}`);
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}
