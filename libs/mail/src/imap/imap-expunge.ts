import { namedStatement, type Database } from '@letterbox/db';
import { bulkChangeEvents, type MailAnnouncer } from '@letterbox/events';

/**
 * The mailbox's mails marked \Deleted (of the given UIDs only, for UID EXPUNGE) deleted for good, as the webmail
 * deletes what is in the trash: deleted_at set, the mail gone from every list, its blob left to the collector; a
 * draft's row goes with its mail, as a discarded draft's does. Answers their UIDs.
 */
const EXPUNGE = namedStatement(
  'imap-expunge',
  `WITH gone AS (
  UPDATE mails m SET deleted_at = now()
    FROM mail_uids u JOIN mailboxes b ON b.id = u.mailbox_id
   WHERE u.mailbox_id = $1 AND b.user_id = $2 AND NOT b.locked AND u.marked_deleted AND m.id = u.mail_id AND m.deleted_at IS NULL
     AND ($3::bigint[] IS NULL OR u.uid = ANY($3::bigint[]))
  RETURNING m.id, u.uid
), drafts_gone AS (
  DELETE FROM drafts d USING gone g WHERE d.mail_id = g.id
)
SELECT id, uid FROM gone ORDER BY uid`,
);

/** IMAP's EXPUNGE and UID EXPUNGE (RFC 3501 6.4.3, RFC 4315 2.1): one statement, announced once committed. */
export class ImapExpunge {
  constructor(
    private readonly db: Database,
    private readonly announcer: MailAnnouncer,
  ) {}

  /** Deletes the marked mails (those of `uids` only, when given); answers the UIDs that left, ascending. */
  async expunge(userId: number, mailboxId: number, uids?: readonly number[]): Promise<number[]> {
    const { rows } = await this.db.sql.query<{ id: string; uid: string }>({ ...EXPUNGE, values: [mailboxId, userId, uids ?? null] });
    if (rows.length > 0)
      await this.announcer.announce(
        bulkChangeEvents(
          [],
          rows.map((row) => Number(row.id)),
          {},
        ).map((event) => ({ userId, event })),
      );
    return rows.map((row) => Number(row.uid));
  }
}
