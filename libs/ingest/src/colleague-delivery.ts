import type { Readable } from 'node:stream';
import { QuotaExceededError } from './inbound-errors';
import type { InboundIntake } from './inbound-intake';
import type { RecipientDirectory } from './recipient-directory';

/**
 * Mail from one Letterbox user to others, delivered by Letterbox itself: accepted as
 * incoming mail for them, so it is stored by the ingest worker's exactly-once store (a
 * retried delivery, same sender and Message-ID, is stored once) and announced with the
 * recipient's push and live event, like any incoming mail. Aliases reach their user and
 * groups their members, as mail from outside does.
 */
export class ColleagueDelivery {
  constructor(
    private readonly directory: RecipientDirectory,
    private readonly intake: InboundIntake,
  ) {}

  /** The addresses Letterbox receives mail for: users' addresses and aliases, groups' addresses. */
  async colleaguesAmong(addresses: string[]): Promise<Set<string>> {
    return new Set((await this.directory.resolve(addresses)).known.keys());
  }

  /**
   * Resolves once the message is durably accepted for them (stored, recorded, queued), or with the reason it was
   * refused for good: as over SMTP, full mailboxes refuse it only when none of them can take it.
   */
  async deliver(message: Readable, recipients: string[]): Promise<{ refusedForGood?: string }> {
    try {
      // Letterbox's own mail: never checked, its sender verdict 'internal'.
      await this.intake.accept({ content: message, envelopeRecipients: recipients, quota: 'refuse-if-all', origin: { channel: 'local' } });
      return {};
    } catch (error) {
      if (error instanceof QuotaExceededError) return { refusedForGood: `552 5.2.2 ${error.message}` };
      throw error;
    }
  }
}
