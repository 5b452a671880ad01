import { sql, type Compilable, type SqlBool } from 'kysely';
import type { Pool, QueryResultRow } from 'pg';
import { inTransaction, queryBuilder } from '@letterbox/db';
import { MailboxLockedError, MailboxNotFoundError } from '../mail-errors';
import { mailConditions, mailExpressions, type MailListFilter } from '../list/mail-filter-sql';
import { mailboxCounters, type MailboxCounters } from '../mailboxes/mailbox-queries';
import type { MailChanges } from './mail-updates';

/** Which mails a bulk change takes: listed ones, whole conversations, or all that match a filter. */
export type MailSelection = { ids: number[] } | { threadIds: number[] } | { filter: MailListFilter };

/** Set flags or move (`changes`), or delete: to the trash, and for good what is there already. */
export type BulkAction = { changes: MailChanges } | { delete: true };

export interface BulkOutcome {
  /** Mails whose flags or mailbox changed, with their new values in `changes`. */
  updated: number[];
  /** Mails deleted for good (they were in the trash). */
  deleted: number[];
  changes: MailChanges;
}

/**
 * Changes many of one user's mails in one UPDATE statement, whatever their number: the
 * mailbox counters follow by their statement-level trigger, once. Mail that is deleted,
 * in a locked mailbox, or already as asked is left alone and not reported.
 */
export class BulkMailChanges {
  /** `sql` is the primary's pool: what a change takes is decided on what it will change. */
  constructor(private readonly sql: Pool) {}

  async apply(userId: number, selection: MailSelection, action: BulkAction): Promise<BulkOutcome> {
    const mailboxes = await mailboxCounters(this.sql, userId);
    const where = mailConditions(userId, mailboxes, 'filter' in selection ? selection.filter : {});
    const eb = mailExpressions;
    const selected = eb.and([
      where.on('m'),
      ...('ids' in selection ? [sql<SqlBool>`${eb.ref('m.id')} = ANY(${selection.ids}::int8[])`] : []),
      ...('threadIds' in selection ? [sql<SqlBool>`${eb.ref('m.thread_id')} = ANY(${selection.threadIds}::int8[])`] : []),
    ]);
    const mails = queryBuilder(this.sql).updateTable('mails as m');

    if ('delete' in action) {
      const trashId = mailboxes.find((mailbox) => mailbox.role === 'trash')?.id;
      if (trashId === undefined) throw new Error(`user ${userId} has no trash mailbox`);
      const rows = await this.update<{ id: string; deleted: boolean }>(
        mails
          .set((set) => ({
            mailbox_id: trashId,
            deleted_at: set
              .case()
              .when('m.mailbox_id', '=', trashId)
              .then(sql<Date>`now()`)
              .end(),
          }))
          .where(selected)
          .returning((returned) => ['m.id', returned('m.deleted_at', 'is not', null).as('deleted')]),
      );
      return {
        updated: ascending(rows.filter((row) => !row.deleted)),
        deleted: ascending(rows.filter((row) => row.deleted)),
        changes: { mailboxId: trashId },
      };
    }

    const { changes } = action;
    if (changes.mailboxId !== undefined) usable(mailboxes, changes.mailboxId);
    const given = COLUMNS.flatMap(([field, column]) => (changes[field] === undefined ? [] : [[column, changes[field]] as const]));
    const rows = await this.update<{ id: string }>(
      mails
        .set(Object.fromEntries(given))
        .where(selected)
        .where((changed) => changed.or(given.map(([column, value]) => changed(`m.${column}`, 'is distinct from', value))))
        .returning('m.id'),
    );
    return { updated: ascending(rows), deleted: [], changes };
  }

  /**
   * The one statement, allowed longer than the pool's statement timeout (made for point
   * reads): a filter may take a hundred thousand mails, about a second of work.
   */
  private update<Row extends QueryResultRow>(statement: Compilable<Row>): Promise<Row[]> {
    const { sql: text, parameters } = statement.compile();
    return inTransaction(this.sql, async (client) => {
      await client.query(`SET LOCAL statement_timeout = ${BULK_STATEMENT_TIMEOUT_MS}`);
      return (await client.query<Row>({ text, values: [...parameters] })).rows;
    });
  }
}

const BULK_STATEMENT_TIMEOUT_MS = 120_000;

const COLUMNS: Array<[keyof MailChanges, 'seen' | 'flagged' | 'important' | 'mailbox_id']> = [
  ['seen', 'seen'],
  ['flagged', 'flagged'],
  ['important', 'important'],
  ['mailboxId', 'mailbox_id'],
];

function usable(mailboxes: MailboxCounters[], mailboxId: number): void {
  const mailbox = mailboxes.find((candidate) => candidate.id === mailboxId);
  if (!mailbox) throw new MailboxNotFoundError(mailboxId);
  if (mailbox.locked) throw new MailboxLockedError(mailboxId);
}

function ascending(rows: Array<{ id: string }>): number[] {
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}
