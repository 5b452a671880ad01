import { sql, type Expression, type SqlBool } from 'kysely';
import type { Pool } from 'pg';
import { inTransaction, queryBuilder } from '@letterbox/db';
import { afterCursor, mailConditions, mailExpressions } from '../list/mail-filter-sql';
import { mailboxCounters } from '../mailboxes/mailbox-queries';
import { changeMails, type BulkOutcome } from './bulk-mail-changes';
import type { BulkChange, BulkChanges, ListKey } from './bulk-changes';

/** What one slice did: the mails it changed (for the announcement), and whether the change is finished. */
export interface SliceOutcome extends BulkOutcome {
  finished: boolean;
}

/**
 * A change over a filter, one slice at a time. Each slice is one short transaction: it
 * locks the change's row (so two runners cannot take the same slice), takes the next
 * `sliceSize` matching mails in list order (newest first, by keyset on the list indexes)
 * no newer than the change's bound, changes them with the same statement a listed change
 * uses, and moves the cursor past them. A crash loses at most the slice in flight, which
 * rolls back; the next run starts after the last committed one, so every mail is changed
 * once. No slice holds more than its own mails' locks: a change to one of the user's
 * mails waits at most for one slice. The mails a slice changes are marked with the change
 * (mails.bulk_change_id), which its undo takes back (UndoBulkChange).
 */
export class BulkChangeSlices {
  constructor(
    private readonly sql: Pool,
    private readonly changes: BulkChanges,
    private readonly sliceSize: number,
  ) {}

  /** The next slice of the change; a finished (or unknown) change does nothing and says it is finished. */
  next(changeId: number): Promise<SliceOutcome> {
    return inTransaction(this.sql, async (client) => {
      const change = await this.changes.lock(client, changeId);
      if (!change || change.status === 'done' || change.status === 'failed' || change.bound === null) {
        return { updated: [], deleted: [], changes: {}, finished: true };
      }
      const mailboxes = await mailboxCounters(client, change.userId);
      // The filter's folder deleted or locked since the change started ends it here (MailboxNotFoundError, MailboxLockedError).
      const where = mailConditions(change.userId, mailboxes, change.filter);
      const { rows } = await client.query<{ id: string; received_at: Date }>(this.sliceQuery(change, where.on('n'), change.bound));
      const last = rows.at(-1);
      const outcome =
        rows.length === 0
          ? { updated: [], deleted: [], changes: {} }
          : await changeMails(
              this.sql,
              client,
              { userId: change.userId, mailboxes, where },
              { ids: rows.map((row) => Number(row.id)) },
              change.action,
              change.id,
            );
      const finished = rows.length < this.sliceSize;
      await this.changes.advance(client, changeId, {
        changed: outcome.updated.length + outcome.deleted.length,
        last: last ? { receivedAt: last.received_at, id: Number(last.id) } : null,
        finished,
      });
      return { ...outcome, finished };
    });
  }

  private sliceQuery(change: BulkChange, matches: Expression<SqlBool>, bound: ListKey) {
    const eb = mailExpressions;
    const withinBound = sql<SqlBool>`(${eb.ref('n.received_at')}, ${eb.ref('n.id')}) <= (${bound.receivedAt}, ${bound.id}::int8)`;
    const { cursor, filter } = change;
    const { sql: text, parameters } = queryBuilder(this.sql)
      .selectFrom('mails as n')
      .select(['n.id', 'n.received_at'])
      .where(matches)
      .where(withinBound)
      .where(filter.changedBy === undefined ? sql<SqlBool>`true` : eb('n.bulk_change_id', '=', String(filter.changedBy)))
      .where(cursor ? afterCursor('n', cursor, 'desc') : sql<SqlBool>`true`)
      .orderBy('n.received_at', 'desc')
      .orderBy('n.id', 'desc')
      .limit(this.sliceSize)
      .compile();
    return { text, values: [...parameters] };
  }
}
