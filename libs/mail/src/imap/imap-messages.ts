import { namedStatement, type Database, type NamedStatement } from '@letterbox/db';
import type { EnvelopeFields, MailLayout } from '@letterbox/mime';
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
  /** Only when asked for, and when its tree records it: the top-level envelope alone, a few hundred bytes of the layout. */
  envelope?: EnvelopeFields;
}

/** What byUids reads besides a message's numbers and flags: its whole layout, or only its recorded envelope. */
export type ImapMessageExtra = 'layout' | 'envelope';

/** A mail's flags since a MODSEQ (CHANGEDSINCE, QRESYNC). */
export interface ImapFlagChange {
  uid: number;
  modseq: number;
  flags: ImapMessageFlags;
}

/** First and last UID of a run, both included. */
export type UidRange = [first: number, last: number];

// Runs of consecutive UIDs, read from the index alone: a mailbox whose mail was never removed is one row, however large.
const UID_RUNS = namedStatement(
  'imap-uid-runs',
  `SELECT min(uid) AS first, max(uid) AS last FROM (
     SELECT uid, uid - row_number() OVER (ORDER BY uid) AS run FROM mail_uids
      WHERE mailbox_id = $1 AND EXISTS (SELECT 1 FROM mailboxes WHERE id = $1 AND user_id = $2)
   ) AS numbered GROUP BY run ORDER BY first`,
);

const MESSAGE_COLUMNS = `u.uid, u.mail_id, u.modseq, ${FLAG_COLUMNS}, m.received_at, m.size, m.storage_key`;
const MESSAGES = namedStatement(
  'imap-messages',
  `SELECT ${MESSAGE_COLUMNS} FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
    WHERE u.mailbox_id = $1 AND b.user_id = $2 AND u.uid = ANY($3::bigint[]) ORDER BY u.uid`,
);
const MESSAGES_WITH: Record<ImapMessageExtra, NamedStatement> = {
  layout: namedStatement(
    'imap-messages-with-layout',
    `SELECT ${MESSAGE_COLUMNS}, m.layout FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
      WHERE u.mailbox_id = $1 AND b.user_id = $2 AND u.uid = ANY($3::bigint[]) ORDER BY u.uid`,
  ),
  // The envelope is picked from the layout by the database: the rest of the tree never crosses the wire.
  envelope: namedStatement(
    'imap-messages-with-envelope',
    `SELECT ${MESSAGE_COLUMNS}, m.layout->'tree'->'envelope' AS envelope FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
      WHERE u.mailbox_id = $1 AND b.user_id = $2 AND u.uid = ANY($3::bigint[]) ORDER BY u.uid`,
  ),
};
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
    WHERE e.mailbox_id = $1 AND b.user_id = $2 AND e.modseq > $3 AND b.expunges_forgotten_up_to <= $3 ORDER BY e.uid`,
);
const FORGOTTEN_UP_TO = namedStatement(
  'imap-expunges-forgotten-up-to',
  'SELECT expunges_forgotten_up_to, uid_next FROM mailboxes WHERE id = $1 AND user_id = $2',
);
// Every UID below UIDNEXT that is not in the mailbox now: the gaps between the UIDs still there, read from the index alone.
const ABSENT_UIDS = namedStatement(
  'imap-absent-uids',
  `SELECT previous + 1 AS first, uid - 1 AS last FROM (
     SELECT uid, COALESCE(lag(uid) OVER (ORDER BY uid), 0) AS previous FROM mail_uids WHERE mailbox_id = $1
     UNION ALL SELECT $2::bigint, COALESCE((SELECT max(uid) FROM mail_uids WHERE mailbox_id = $1), 0)
   ) AS present WHERE uid > previous + 1 ORDER BY first`,
);

interface MessageRow extends FlagRow {
  uid: string;
  mail_id: string;
  modseq: string;
  received_at: Date;
  size: number;
  storage_key: string;
  layout?: MailLayout;
  envelope?: EnvelopeFields | null;
}

/** A mailbox's mail by UID, as the IMAP session sees it; every read names the user, whose mailbox it must be. */
export class ImapMessages {
  constructor(private readonly db: Database) {}

  /**
   * Every UID of the mailbox, ascending, as runs of consecutive UIDs: a selected mailbox's message sequence numbers.
   * A million mails are one row when none was removed, and as many rows as gaps otherwise.
   */
  async uidRuns(userId: number, mailboxId: number): Promise<UidRange[]> {
    const { rows } = await this.db.sql.query<[string, string]>({ ...UID_RUNS, values: [mailboxId, userId], rowMode: 'array' });
    return rows.map(([first, last]) => [Number(first), Number(last)]);
  }

  /** The mails of these UIDs that are still in the mailbox, in UID order, with their layout or envelope when asked. */
  async byUids(userId: number, mailboxId: number, uids: readonly number[], extra?: ImapMessageExtra): Promise<ImapMessage[]> {
    if (uids.length === 0) return [];
    const statement = extra ? MESSAGES_WITH[extra] : MESSAGES;
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
      ...(row.envelope ? { envelope: row.envelope } : {}),
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

  /**
   * The UIDs that left the mailbox after `modseq` (expunged, moved out, deleted), as ascending
   * ranges. When the sweep has forgotten expunges after `modseq` (ExpungeRecordSweep), every UID
   * below UIDNEXT not in the mailbox now: more than vanished since, as RFC 7162 allows.
   */
  async vanishedSince(userId: number, mailboxId: number, modseq: number): Promise<UidRange[]> {
    const { rows } = await this.db.sql.query<[string]>({ ...VANISHED_SINCE, values: [mailboxId, userId, modseq], rowMode: 'array' });
    if (rows.length > 0) return uidRanges(rows.map((row) => Number(row[0])));
    const { rows: boxes } = await this.db.sql.query<{ expunges_forgotten_up_to: string; uid_next: string }>({
      ...FORGOTTEN_UP_TO,
      values: [mailboxId, userId],
    });
    const box = boxes[0];
    if (!box || Number(box.expunges_forgotten_up_to) <= modseq) return [];
    const { rows: gaps } = await this.db.sql.query<{ first: string; last: string }>({ ...ABSENT_UIDS, values: [mailboxId, box.uid_next] });
    return gaps.map((gap) => [Number(gap.first), Number(gap.last)]);
  }
}

/** Ascending UIDs as runs of consecutive ones. */
function uidRanges(uids: number[]): UidRange[] {
  const ranges: UidRange[] = [];
  for (const uid of uids) {
    const last = ranges[ranges.length - 1];
    if (last && uid === last[1] + 1) last[1] = uid;
    else ranges.push([uid, uid]);
  }
  return ranges;
}
