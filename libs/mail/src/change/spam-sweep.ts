import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { bulkChangeEvents, type MailAnnouncer } from '@letterbox/events';

const DELETE_OLD_SPAM = namedStatement(
  'spam-sweep',
  `UPDATE mails m SET deleted_at = now()
    WHERE m.id IN (
      SELECT o.id FROM mails o JOIN mailboxes mb ON mb.id = o.mailbox_id
       WHERE mb.role = 'spam' AND o.deleted_at IS NULL AND o.received_at < now() - $1::int * interval '1 day'
       LIMIT $2)
      AND m.deleted_at IS NULL
    RETURNING m.id, m.user_id`,
);

/**
 * Deletes mail that has stayed in Spam longer than the retention (as a delete from the
 * trash does: for good), a bounded batch per run, each batch one statement, announced to
 * each owner once committed. Answers how many it deleted: a full batch means more remain.
 */
export class SpamSweep {
  constructor(
    private readonly sql: Pool,
    private readonly announcer: MailAnnouncer,
    private readonly options: { retentionDays: number; batchSize: number },
  ) {}

  async sweep(): Promise<number> {
    const { rows } = await this.sql.query<{ id: string; user_id: number }>({
      ...DELETE_OLD_SPAM,
      values: [this.options.retentionDays, this.options.batchSize],
    });
    const byUser = new Map<number, number[]>();
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), Number(row.id)]);
    await this.announcer.announce([...byUser].flatMap(([userId, mailIds]) => bulkChangeEvents([], mailIds, {}).map((event) => ({ userId, event }))));
    return rows.length;
  }
}
