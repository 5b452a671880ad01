import type { Readable } from 'node:stream';
import { namedStatement, type Database } from '@letterbox/db';
import { mailCreatedEvents, type MailAnnouncer } from '@letterbox/events';
import type { BlobStore } from '@letterbox/storage';
import { insertMail } from '../store/mail-insert';
import { prepareMail, type PreparedMail } from '../store/store-mail';
import type { ImapStoredFlags } from './imap-flag-store';
import { ImapOverQuotaError } from './imap-mail-transfers';
import { imapUsage } from './imap-usage';

/** A message a client appends: its bytes, with the flags and internal date it gives. */
export interface AppendedMessage {
  eml: Buffer | Readable;
  size: number;
  flags: ImapStoredFlags;
  receivedAt?: Date;
}

export interface ImapAppended {
  mailId: number;
  uidValidity: number;
  uid: number;
}

/** The flags insertMail does not place, set on the new mail in its own statement (one MODSEQ more). */
const OTHER_FLAGS = namedStatement(
  'imap-append-flags',
  'UPDATE mails SET answered = $2, forwarded = $3, marked_deleted = $4, keywords = $5::text[] WHERE id = $1',
);

const APPENDED = namedStatement(
  'imap-appended-uid',
  'SELECT u.uid, b.uid_validity FROM mail_uids u JOIN mailboxes b ON b.id = u.mailbox_id WHERE u.mail_id = $1 AND u.mailbox_id = $2',
);

const USABLE = namedStatement('imap-append-target', 'SELECT 1 FROM mailboxes WHERE id = $1 AND user_id = $2 AND NOT locked');

/**
 * IMAP's APPEND (RFC 3501 6.3.11, RFC 4315 APPENDUID): the message stored as incoming mail is (storage first, then
 * its rows in one statement, no transaction around the I/O), with the client's flags and internal date, and
 * announced as new mail. Mail past the user's quota is refused before it is stored.
 */
export class ImapAppend {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly announcer: MailAnnouncer,
    /** USER_QUOTA_BYTES: the quota of users without one of their own. */
    private readonly defaultQuotaBytes: number,
  ) {}

  /** Whether `bytes` more fit in the user's quota: asked before the message is read. */
  async fits(userId: number, bytes: number): Promise<boolean> {
    const { usedBytes, quotaBytes } = await imapUsage(this.db.sql, userId, this.defaultQuotaBytes);
    return usedBytes + bytes <= quotaBytes;
  }

  async append(userId: number, mailboxId: number, message: AppendedMessage): Promise<ImapAppended | undefined> {
    const prepared = await this.prepare(userId, mailboxId, message);
    return prepared && this.place(userId, mailboxId, prepared, message);
  }

  /**
   * The message put in storage and read, not yet mail: refused past the user's quota; undefined when the mailbox
   * is gone or locked. What `place` then stores, unless the caller finds it held already.
   */
  async prepare(userId: number, mailboxId: number, message: Pick<AppendedMessage, 'eml' | 'size'>): Promise<PreparedMail | undefined> {
    const { usedBytes, quotaBytes } = await imapUsage(this.db.sql, userId, this.defaultQuotaBytes);
    if (usedBytes + message.size > quotaBytes) throw new ImapOverQuotaError(userId, quotaBytes);
    const { rowCount } = await this.db.sql.query({ ...USABLE, values: [mailboxId, userId] });
    if (rowCount === 0) return undefined;
    return prepareMail(this.blobs, message.eml);
  }

  /** The prepared message made mail in the mailbox, with the client's flags and internal date, and announced. */
  async place(userId: number, mailboxId: number, prepared: PreparedMail, message: Omit<AppendedMessage, 'eml' | 'size'>): Promise<ImapAppended | undefined> {
    const { flags } = message;
    const { id } = await insertMail(this.db.sql, prepared, {
      userId,
      mailboxId,
      receivedAt: message.receivedAt ?? new Date(),
      seen: flags.seen,
      flagged: flags.flagged,
    });
    if (flags.answered || flags.forwarded || flags.deleted || flags.keywords.length > 0)
      await this.db.sql.query({ ...OTHER_FLAGS, values: [id, flags.answered, flags.forwarded, flags.deleted, [...new Set(flags.keywords)]] });
    await this.announcer.announce(mailCreatedEvents([{ userId, mailId: id, mailboxId }]));
    return this.held(id, mailboxId);
  }

  /** A mail as the mailbox holds it (its UID there); undefined when it is not there. */
  async held(mailId: number, mailboxId: number): Promise<ImapAppended | undefined> {
    const { rows } = await this.db.sql.query<{ uid: string; uid_validity: string }>({ ...APPENDED, values: [mailId, mailboxId] });
    return rows[0] && { mailId, uid: Number(rows[0].uid), uidValidity: Number(rows[0].uid_validity) };
  }
}
