import { setTimeout as sleep } from 'node:timers/promises';
import type { SMTPServerSession } from 'smtp-server';
import type { ClientRate } from './client-rate';

/** Unknown recipients a session is told about at once: a sender's typos, not a harvest. */
const ANSWERED_AT_ONCE = 3;
/** How long each later unknown recipient's answer waits, as Postfix's smtpd_error_sleep_time does. */
const DELAY_MS = 1000;
/** Unknown recipients after which the session is ended (421), as Postfix's smtpd_hard_error_limit does. */
const SESSION_LIMIT = 10;

/**
 * Slows and ends a session that tries address after address to learn which exist (address
 * harvesting): after a few unknown recipients each answer waits, and past SESSION_LIMIT the
 * session is closed with 421. Every unknown recipient also counts against its client
 * address's messages per minute, so new sessions do not start the count again.
 */
export class RecipientProbing {
  private readonly unknownBySession = new WeakMap<SMTPServerSession, number>();

  constructor(private readonly perClient: ClientRate) {}

  /** Records an unknown recipient of the session's: resolves when it may be told, or rejects with the 421 that ends the session. */
  async unknownRecipient(session: SMTPServerSession): Promise<void> {
    const count = (this.unknownBySession.get(session) ?? 0) + 1;
    this.unknownBySession.set(session, count);
    const overRate = !this.perClient.take(session.remoteAddress);
    if (count >= SESSION_LIMIT || overRate) {
      throw Object.assign(new Error('4.7.0 too many unknown recipients; closing the connection'), { responseCode: 421 });
    }
    if (count > ANSWERED_AT_ONCE) await sleep(DELAY_MS);
  }
}
