import type { Pool, QueryResultRow } from 'pg';
import { inTransaction } from '@letterbox/db';
import { MailboxLockedError, MailboxNotFoundError } from './mail-errors';
import { mailConditions, type MailListFilter } from './mail-filter-sql';
import { mailboxCounters, type MailboxCounters } from './mailbox-queries';
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
    const values = [...where.values];
    const bind = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    const conditions = where.on('m');
    if ('ids' in selection) conditions.push(`m.id = ANY(${bind(selection.ids)}::int8[])`);
    if ('threadIds' in selection) conditions.push(`m.thread_id = ANY(${bind(selection.threadIds)}::int8[])`);

    if ('delete' in action) {
      const trashId = mailboxes.find((mailbox) => mailbox.role === 'trash')?.id;
      if (trashId === undefined) throw new Error(`user ${userId} has no trash mailbox`);
      const trash = bind(trashId);
      const rows = await this.update<{ id: string; deleted: boolean }>(
        `UPDATE mails m SET mailbox_id = ${trash}, deleted_at = CASE WHEN m.mailbox_id = ${trash} THEN now() END
          WHERE ${conditions.join(' AND ')} RETURNING m.id, m.deleted_at IS NOT NULL AS deleted`,
        values,
      );
      return {
        updated: ascending(rows.filter((row) => !row.deleted)),
        deleted: ascending(rows.filter((row) => row.deleted)),
        changes: { mailboxId: trashId },
      };
    }

    const { changes } = action;
    if (changes.mailboxId !== undefined) usable(mailboxes, changes.mailboxId);
    const assignments: string[] = [];
    const differences: string[] = [];
    for (const [field, column] of COLUMNS) {
      const value = changes[field];
      if (value === undefined) continue;
      const placeholder = bind(value);
      assignments.push(`${column} = ${placeholder}`);
      differences.push(`m.${column} IS DISTINCT FROM ${placeholder}`);
    }
    const rows = await this.update<{ id: string }>(
      `UPDATE mails m SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')} AND (${differences.join(' OR ')}) RETURNING m.id`,
      values,
    );
    return { updated: ascending(rows), deleted: [], changes };
  }

  /**
   * The one statement, allowed longer than the pool's statement timeout (made for point
   * reads): a filter may take a hundred thousand mails, about a second of work.
   */
  private update<Row extends QueryResultRow>(text: string, values: unknown[]): Promise<Row[]> {
    return inTransaction(this.sql, async (client) => {
      await client.query(`SET LOCAL statement_timeout = ${BULK_STATEMENT_TIMEOUT_MS}`);
      return (await client.query<Row>({ text, values })).rows;
    });
  }
}

const BULK_STATEMENT_TIMEOUT_MS = 120_000;

const COLUMNS: Array<[keyof MailChanges, string]> = [
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
