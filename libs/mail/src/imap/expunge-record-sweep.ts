import type { Pool } from 'pg';
import { inTransaction, namedStatement } from '@letterbox/db';

const FORGET = namedStatement(
  'imap-expunges-forget',
  `WITH forgotten AS (
     DELETE FROM mail_expunges WHERE (mailbox_id, modseq, uid) IN (
       SELECT mailbox_id, modseq, uid FROM mail_expunges
        WHERE expunged_at < now() - $1::int * interval '1 day' ORDER BY expunged_at LIMIT $2)
     RETURNING mailbox_id, modseq)
   SELECT mailbox_id, max(modseq) AS modseq, count(*)::int AS forgotten FROM forgotten GROUP BY mailbox_id ORDER BY mailbox_id`,
);
// In id order, as the UID trigger locks mailboxes, so the two never deadlock.
const LOCK = namedStatement('imap-expunges-lock-mailboxes', 'SELECT 1 FROM mailboxes WHERE id = ANY($1::int[]) ORDER BY id FOR NO KEY UPDATE');
const NOTE = namedStatement(
  'imap-expunges-note-forgotten',
  `UPDATE mailboxes m SET expunges_forgotten_up_to = GREATEST(m.expunges_forgotten_up_to, f.modseq)
     FROM unnest($1::int[], $2::bigint[]) AS f(mailbox_id, modseq) WHERE m.id = f.mailbox_id`,
);

/**
 * Forgets expunged UIDs older than the retention, a bounded batch a run, and notes in each
 * mailbox up to which MODSEQ it forgot, in one transaction: a QRESYNC answer never takes an
 * incomplete record for a complete one. Answers how many it forgot: a full batch means more remain.
 */
export class ExpungeRecordSweep {
  constructor(
    private readonly sql: Pool,
    private readonly options: { retentionDays: number; batchSize: number },
  ) {}

  async sweep(): Promise<number> {
    return inTransaction(this.sql, async (client) => {
      const { rows } = await client.query<{ mailbox_id: number; modseq: string; forgotten: number }>({
        ...FORGET,
        values: [this.options.retentionDays, this.options.batchSize],
      });
      if (rows.length === 0) return 0;
      const mailboxIds = rows.map((row) => row.mailbox_id);
      await client.query({ ...LOCK, values: [mailboxIds] });
      await client.query({ ...NOTE, values: [mailboxIds, rows.map((row) => row.modseq)] });
      return rows.reduce((sum, row) => sum + row.forgotten, 0);
    });
  }
}
