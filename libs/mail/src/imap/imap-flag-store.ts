import { namedStatement, type Database } from '@letterbox/db';
import { bulkChangeEvents, type MailAnnouncer } from '@letterbox/events';

/** The flags a STORE names: the system ones it may set (not \Draft, which is where the mail is) and keywords. */
export interface ImapStoredFlags {
  seen: boolean;
  flagged: boolean;
  answered: boolean;
  forwarded: boolean;
  /** \Deleted: marked for the next EXPUNGE. */
  deleted: boolean;
  keywords: string[];
}

export interface ImapFlagStore {
  /** FLAGS replaces, +FLAGS adds, -FLAGS removes (RFC 3501 6.4.6). */
  mode: 'replace' | 'add' | 'remove';
  flags: ImapStoredFlags;
  /** RFC 7162 UNCHANGEDSINCE: only mails whose MODSEQ is at most this change. */
  unchangedSince?: number;
}

export interface ImapFlagStoreOutcome {
  /** UIDs whose flags changed, ascending. */
  changed: number[];
  /** UIDs left alone because they changed after UNCHANGEDSINCE (the MODIFIED response code), ascending. */
  modified: number[];
}

const BOOLEAN_COLUMNS = [
  ['seen', 'seen'],
  ['flagged', 'flagged'],
  ['answered', 'answered'],
  ['forwarded', 'forwarded'],
  ['deleted', 'marked_deleted'],
] as const;

// $4..$8: each column's new value, NULL to keep it; $9 keywords to add, $10 to remove, $11 all of them (NULL: add and remove).
const NEW_VALUES = [
  ...BOOLEAN_COLUMNS.map(([, column], index) => `coalesce($${index + 4}::boolean, m.${column})`),
  `coalesce($11::text[], array(SELECT k FROM unnest(m.keywords) k WHERE k <> ALL($10::text[]))
     || array(SELECT DISTINCT k FROM unnest($9::text[]) k WHERE k <> ALL(m.keywords)))`,
];
const COLUMNS = [...BOOLEAN_COLUMNS.map(([, column]) => column), 'keywords'];

/**
 * One UPDATE over the UIDs: the mailbox counters, MODSEQs and UIDs follow by their triggers. A mail already as
 * asked is not written (its MODSEQ stays); one changed after UNCHANGEDSINCE is reported, not written.
 */
const STORE = namedStatement(
  'imap-store-flags',
  `WITH target AS (
  SELECT u.mail_id, u.uid, u.modseq FROM mail_uids u JOIN mailboxes b ON b.id = u.mailbox_id
   WHERE u.mailbox_id = $1 AND b.user_id = $2 AND NOT b.locked AND u.uid = ANY($3::bigint[])
), updated AS (
  UPDATE mails m SET ${COLUMNS.map((column, index) => `${column} = ${NEW_VALUES[index]}`).join(', ')}
    FROM target t
   WHERE m.id = t.mail_id AND m.deleted_at IS NULL AND ($12::bigint IS NULL OR t.modseq <= $12)
     AND (${COLUMNS.map((column) => `m.${column}`).join(', ')}) IS DISTINCT FROM (${NEW_VALUES.join(', ')})
  RETURNING m.id, t.uid
)
SELECT false AS modified, id AS mail_id, uid FROM updated
UNION ALL
SELECT true, mail_id, uid FROM target WHERE $12::bigint IS NOT NULL AND modseq > $12
ORDER BY uid`,
);

/**
 * IMAP's STORE on a user's mailbox, as the webmail's flag changes are made: one statement, the change announced
 * once committed (the webmail and the user's other sessions follow the events).
 */
export class ImapFlagChanges {
  constructor(
    private readonly db: Database,
    private readonly announcer: MailAnnouncer,
  ) {}

  async store(userId: number, mailboxId: number, uids: readonly number[], store: ImapFlagStore): Promise<ImapFlagStoreOutcome> {
    if (uids.length === 0) return { changed: [], modified: [] };
    const { mode, flags } = store;
    const value = (named: boolean): boolean | null => (mode === 'replace' ? named : named ? mode === 'add' : null);
    const booleans = BOOLEAN_COLUMNS.map(([field]) => value(flags[field]));
    const keywords = [...new Set(flags.keywords)];
    const { rows } = await this.db.sql.query<{ modified: boolean; mail_id: string; uid: string }>({
      ...STORE,
      values: [
        mailboxId,
        userId,
        uids,
        ...booleans,
        mode === 'add' ? keywords : [],
        mode === 'remove' ? keywords : [],
        mode === 'replace' ? keywords : null,
        store.unchangedSince ?? null,
      ],
    });
    const changedRows = rows.filter((row) => !row.modified);
    if (changedRows.length > 0) {
      const changes = Object.fromEntries(
        BOOLEAN_COLUMNS.flatMap(([field], index) => (field !== 'deleted' && booleans[index] !== null ? [[field, booleans[index]]] : [])),
      );
      const mailIds = changedRows.map((row) => Number(row.mail_id));
      await this.announcer.announce(bulkChangeEvents(mailIds, [], changes).map((event) => ({ userId, event })));
    }
    return {
      changed: changedRows.map((row) => Number(row.uid)),
      modified: rows.filter((row) => row.modified).map((row) => Number(row.uid)),
    };
  }
}
