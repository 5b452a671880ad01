import type { PreparedMail, SpamVerdict } from '@letterbox/mail';
import type { SieveVacation } from '@letterbox/sieve';
import type { InboundMessageJob, JobTrace } from '@letterbox/queue';
import type { StoredInboundMail } from '../inbound-batch-insert';
import type { RecipientMessage } from '../ingested-messages';

/** An accepted message as its job brings it, with the id of the request that brought it. */
export type IngestMessage = InboundMessageJob & JobTrace;

/** What became of one message of a batch, once every stage has run. */
export interface IngestOutcome {
  /** Recipients whose inbox got the message now. */
  stored: number;
  /** Recipients who had it already (a redelivery, or an earlier attempt of this one). */
  duplicates: number;
}

/** One message on its way through the stages: what each has found out about it so far. */
export interface IngestItem {
  readonly message: IngestMessage;
  /** The recipients it is still to be stored for, each with its dedup key: all of them, until the dedup stage. */
  recipients: RecipientMessage[];
  /** Its content, ready to be stored: set by the parse stage for a message with recipients left. */
  prepared?: PreparedMail;
  /** Its bytes, when the parse stage read them from the intake's spool: the later stages need not read them again. */
  spooled?: Buffer;
  /** Its mails, stored now or by an earlier attempt of its acceptance: set by the store stage. */
  stored: StoredInboundMail[];
  /** rspamd's verdict, and the recipients whose Spam the message goes to: set by the spam stage for a message it scored or a recipient's rule sent to Spam. */
  spam?: { verdict?: SpamVerdict; spamFor: ReadonlySet<number> };
  /** What the recipients' rules decided, by user id: set by the rules stage for those whose script ran. */
  rules?: ReadonlyMap<number, RuleOutcome>;
}

/** Where a recipient's rules put their copy (a folder by id; the inbox without one), with its flags, or that it is not stored. */
export interface RuleOutcome {
  mailboxId?: number;
  seen: boolean;
  flagged: boolean;
  discarded: boolean;
  /** The out-of-office reply the script asked for (`vacation`), which the vacation stage sends in place of the settings' one. */
  vacation?: SieveVacation;
  /** The addresses the script redirects the mail to (`redirect`), which the redirect stage sends it on to. */
  redirects?: string[];
}

/** The recipient's mailbox a message goes to: Spam when the intake's checks or the spam stage put it there. */
export function mailboxOf(item: IngestItem, userId: number): 'inbox' | 'spam' {
  return item.message.mailbox === 'spam' || item.spam?.spamFor.has(userId) ? 'spam' : 'inbox';
}

/**
 * The messages the stages work on together, in the order their jobs came. A stage that
 * fails for one message fails it here, and the later stages see only the messages none
 * has failed (`ongoing`): that message's job fails alone, and the others go on.
 */
export class IngestBatch {
  readonly items: readonly IngestItem[];
  private readonly failures = new Map<IngestItem, Error>();

  constructor(messages: IngestMessage[]) {
    this.items = messages.map((message) => ({
      message,
      recipients: message.recipientIds.map((userId) => ({ userId, dedupKey: message.dedupKey ?? message.messageId })),
      stored: [],
    }));
  }

  /** The messages no stage has failed, in their order. */
  get ongoing(): IngestItem[] {
    return this.items.filter((item) => !this.failures.has(item));
  }

  /** Takes the message out of the batch: the later stages skip it, and its job fails with `error`. */
  fail(item: IngestItem, error: Error): void {
    if (!this.failures.has(item)) this.failures.set(item, error);
  }

  /**
   * Each message's outcome, or the error that failed it. Messages are counted by
   * acceptance: a message whose job came twice in one batch counts its stored mails in each.
   */
  outcomes(): Array<IngestOutcome | Error> {
    const storedNow = new Map<string, number>();
    for (const mail of this.items.flatMap((item) => item.stored)) {
      if (mail.storedNow) storedNow.set(mail.inboundId, (storedNow.get(mail.inboundId) ?? 0) + 1);
    }
    return this.items.map((item) => {
      const failure = this.failures.get(item);
      if (failure) return failure;
      const stored = storedNow.get(item.message.inboundId) ?? 0;
      // A bounce has no recipients, and its notices are stored for its sender.
      return { stored, duplicates: Math.max(0, item.message.recipientIds.length - stored) };
    });
  }
}
