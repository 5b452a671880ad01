import { namedStatement, type Database } from '@letterbox/db';
import type { AppendedMessage, ImapAppend, ImapAppended, PreparedMail } from '@letterbox/mail';
import { messageIdIn, submittedSendKey } from '../submit/submitted-send-key';
import type { SentCopies } from './sent-copies';

/** The user's send of a message their mail client submitted, found by its idempotency key (a unique index). */
const SUBMITTED_SEND = namedStatement(
  'sent-append-submitted-send',
  'SELECT id, sent_mail_id, sent_copy_pending FROM outbound_sends WHERE user_id = $1 AND idempotency_key = $2',
);

/**
 * A message a mail client APPENDs to the user's Sent mailbox. Clients submit a message (SMTP submission) and then
 * append their own copy of it to Sent; the send pipeline keeps a copy already (SentCopies: the message as it went
 * out, its Bcc as the pipeline keeps it), so the client's is not stored again: the APPEND answers with the send's
 * copy. The send is the user's own, found by the appended message's Message-ID as its submission recorded it.
 *
 * A copy still pending is stored now, through SentCopies, rather than waited for: that store claims the send's row
 * (FOR UPDATE, still pending), so it and the worker's or the sweep's store make one copy between them, and it does
 * not depend on the worker being up. Should it fail, the APPEND fails and the copy stays pending for the sweep:
 * nothing is lost, and the client's retry finds the copy. A message with no such send (sent elsewhere, or submitted
 * without a copy kept) is stored as any appended message is, and so is one whose copy is no longer in this mailbox
 * (moved or deleted by the user, or in Drafts, its send cancelled). The client's bytes, in storage by then, are left
 * to BlobCollector, as any blob nothing refers to.
 */
export class SentFolderAppends {
  constructor(
    private readonly db: Database,
    private readonly appender: ImapAppend,
    private readonly copies: SentCopies,
  ) {}

  async append(userId: number, mailboxId: number, message: AppendedMessage): Promise<ImapAppended | undefined> {
    const prepared = await this.appender.prepare(userId, mailboxId, message);
    if (!prepared) return undefined;
    const copyId = await this.sentCopyOf(userId, prepared);
    const held = copyId === undefined ? undefined : await this.appender.held(copyId, mailboxId);
    return held ?? this.appender.place(userId, mailboxId, prepared, message);
  }

  /** The mail id of the copy of the user's send of this message, stored by the time this answers; none without a send keeping one. */
  private async sentCopyOf(userId: number, prepared: PreparedMail): Promise<number | undefined> {
    const messageId = messageIdIn(prepared.summary.messageId ?? '');
    if (messageId === undefined) return undefined;
    const { rows } = await this.db.sql.query<{ id: string; sent_mail_id: string | null; sent_copy_pending: boolean }>({
      ...SUBMITTED_SEND,
      values: [userId, submittedSendKey(messageId)],
    });
    const send = rows[0];
    if (!send || send.sent_mail_id === null) return undefined;
    if (send.sent_copy_pending) await this.copies.store([Number(send.id)]);
    return Number(send.sent_mail_id);
  }
}
