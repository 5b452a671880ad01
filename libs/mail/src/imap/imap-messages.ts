import { namedStatement, type Database } from '@letterbox/db';
import type { MailLayout } from '@letterbox/mime';
import { FLAG_COLUMNS, flagsOf, type FlagRow, type ImapMessageFlags } from './imap-message-flags';

/** A mail as FETCH reads it: its numbers, flags and what its content is read from. */
export interface ImapMessage {
  uid: number;
  mailId: number;
  modseq: number;
  flags: ImapMessageFlags;
  /** INTERNALDATE: when Letterbox received (or stored) it. */
  receivedAt: Date;
  size: number;
  storageKey: string;
  /** Only when asked for: the layout can be kilobytes (a large mail's MIME tree). */
  layout?: MailLayout;
}

/** A mail's flags since a MODSEQ (CHANGEDSINCE, QRESYNC). */
export interface ImapFlagChange {
  uid: number;
  modseq: number;
  flags: ImapMessageFlags;
}

const UIDS = namedStatement(
  'imap-uids',
  'SELECT uid FROM mail_uids WHERE mailbox_id = $1 AND EXISTS (SELECT 1 FROM mailboxes WHERE id = $1 AND user_id = $2) ORDER BY uid',
);

const MESSAGE_COLUMNS = `u.uid, u.mail_id, u.modseq, ${FLAG_COLUMNS}, m.received_at, m.size, m.storage_key`;
const MESSAGES = namedStatement(
  'imap-messages',
  `SELECT ${MESSAGE_COLUMNS} FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
    WHERE u.mailbox_id = $1 AND b.user_id = $2 AND u.uid = ANY($3::bigint[]) ORDER BY u.uid`,
);
const MESSAGES_WITH_LAYOUT = namedStatement(
  'imap-messages-with-layout',
  `SELECT ${MESSAGE_COLUMNS}, m.layout FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
    WHERE u.mailbox_id = $1 AND b.user_id = $2 AND u.uid = ANY($3::bigint[]) ORDER BY u.uid`,
);
const CHANGED_SINCE = namedStatement(
  'imap-changed-since',
  `SELECT u.uid, u.modseq, ${FLAG_COLUMNS} FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
    WHERE u.mailbox_id = $1 AND b.user_id = $2 AND u.modseq > $3 ORDER BY u.uid`,
);
const CHANGED_SINCE_PAGE = namedStatement(
  'imap-changed-since-page',
  `SELECT u.uid, u.modseq, ${FLAG_COLUMNS} FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
    WHERE u.mailbox_id = $1 AND b.user_id = $2 AND u.modseq > $3 AND u.uid > $4 ORDER BY u.uid LIMIT $5`,
);

const VANISHED_SINCE = namedStatement(
  'imap-vanished-since',
  `SELECT e.uid FROM mail_expunges e JOIN mailboxes b ON b.id = e.mailbox_id
    WHERE e.mailbox_id = $1 AND b.user_id = $2 AND e.modseq > $3 ORDER BY e.uid`,
);

interface MessageRow extends FlagRow {
  uid: string;
  mail_id: string;
  modseq: string;
  received_at: Date;
  size: number;
  storage_key: string;
  layout?: MailLayout;
}

/** A mailbox's mail by UID, as the IMAP session sees it; every read names the user, whose mailbox it must be. */
export class ImapMessages {
  constructor(private readonly db: Database) {}

  /**
   * Every UID of the mailbox, ascending: a selected mailbox's message sequence numbers. Read
   * from the index alone; 1,000,000 mails are 1,000,000 numbers, 8 MB while the session keeps them.
   */
  async uids(userId: number, mailboxId: number): Promise<number[]> {
    const { rows } = await this.db.sql.query<[string]>({ ...UIDS, values: [mailboxId, userId], rowMode: 'array' });
    return rows.map((row) => Number(row[0]));
  }

  /** The mails of these UIDs that are still in the mailbox, in UID order. */
  async byUids(userId: number, mailboxId: number, uids: readonly number[], options: { layout?: boolean } = {}): Promise<ImapMessage[]> {
    if (uids.length === 0) return [];
    const statement = options.layout ? MESSAGES_WITH_LAYOUT : MESSAGES;
    const { rows } = await this.db.sql.query<MessageRow>({ ...statement, values: [mailboxId, userId, uids] });
    return rows.map((row) => ({
      uid: Number(row.uid),
      mailId: Number(row.mail_id),
      modseq: Number(row.modseq),
      flags: flagsOf(row),
      receivedAt: row.received_at,
      size: row.size,
      storageKey: row.storage_key,
      ...(row.layout ? { layout: row.layout } : {}),
    }));
  }

  /**
   * The mails whose flags changed, or that arrived, after `modseq`, in UID order; with `page`, only the first
   * `limit` of those above `afterUid`: a change to a million mails is read a page at a time.
   */
  async changedSince(userId: number, mailboxId: number, modseq: number, page?: { afterUid: number; limit: number }): Promise<ImapFlagChange[]> {
    const query = page
      ? { ...CHANGED_SINCE_PAGE, values: [mailboxId, userId, modseq, page.afterUid, page.limit] }
      : { ...CHANGED_SINCE, values: [mailboxId, userId, modseq] };
    const { rows } = await this.db.sql.query<FlagRow & { uid: string; modseq: string }>(query);
    return rows.map((row) => ({ uid: Number(row.uid), modseq: Number(row.modseq), flags: flagsOf(row) }));
  }

  /** The UIDs that left the mailbox after `modseq` (expunged, moved out, deleted), ascending. */
  async vanishedSince(userId: number, mailboxId: number, modseq: number): Promise<number[]> {
    const { rows } = await this.db.sql.query<[string]>({ ...VANISHED_SINCE, values: [mailboxId, userId, modseq], rowMode: 'array' });
    return rows.map((row) => Number(row[0]));
  }
}
