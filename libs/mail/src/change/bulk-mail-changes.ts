import { sql, type Compilable, type SqlBool } from 'kysely';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { inTransaction, queryBuilder } from '@letterbox/db';
import { MailboxDeletedError, MailboxLockedError, MailboxNotFoundError } from '../mail-errors';
import { mailConditions, mailExpressions, type MailConditions } from '../list/mail-filter-sql';
import { mailboxCounters, type MailboxCounters } from '../mailboxes/mailbox-queries';
import type { MailChanges } from './mail-updates';

/**
 * Which mails a change made at once takes: listed ones, or whole conversations, a bounded
 * number either way (a change over a filter is done in slices: bulk-change-slices.ts).
 */
export type MailSelection = { ids: number[] } | { threadIds: number[] };

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
 * Changes listed mails or whole conversations of one user in one UPDATE statement: the
 * mailbox counters follow by their statement-level trigger, once. Mail that is deleted,
 * in a locked mailbox, or already as asked is left alone and not reported.
 */
export class BulkMailChanges {
  /** `sql` is the primary's pool: what a change takes is decided on what it will change. */
  constructor(private readonly sql: Pool) {}

  apply(userId: number, selection: MailSelection, action: BulkAction): Promise<BulkOutcome> {
    return inTransaction(this.sql, async (client) => {
      const mailboxes = await mailboxCounters(client, userId);
      return changeMails(this.sql, client, { userId, mailboxes, where: mailConditions(userId, mailboxes, {}) }, selection, action);
    });
  }
}

/** The user's mails a change may take (visible, in unlocked mailboxes), with the counters that told which. */
export interface ChangeableMails {
  userId: number;
  mailboxes: MailboxCounters[];
  where: MailConditions;
}

/**
 * The one UPDATE of a change, in the caller's transaction. A move's target mailbox is
 * locked (FOR KEY SHARE) before the mails are: a folder deleted meanwhile is then either
 * deleted after the move (its mail, just moved, goes to the trash with it) or found gone
 * here, a MailboxDeletedError, never a foreign-key violation. `pool` is the one `client`
 * came from: the statement is built for it. `changedBy`, a change over a filter, is marked on
 * the mails whose flags it changed (what its undo takes back).
 */
export async function changeMails(
  pool: Pool,
  client: PoolClient,
  mails: ChangeableMails,
  selection: MailSelection,
  action: BulkAction,
  changedBy?: number,
): Promise<BulkOutcome> {
  const { userId, mailboxes } = mails;
  const eb = mailExpressions;
  const selected = eb.and([
    mails.where.on('m'),
    'ids' in selection
      ? sql<SqlBool>`${eb.ref('m.id')} = ANY(${selection.ids}::int8[])`
      : sql<SqlBool>`${eb.ref('m.thread_id')} = ANY(${selection.threadIds}::int8[])`,
  ]);
  const builder = queryBuilder(pool).updateTable('mails as m');

  if ('delete' in action) {
    const trashId = mailboxes.find((mailbox) => mailbox.role === 'trash')?.id;
    if (trashId === undefined) throw new Error(`user ${userId} has no trash mailbox`);
    await lockTarget(client, userId, trashId);
    const rows = await run<{ id: string; deleted: boolean }>(
      client,
      builder
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
  if (changes.mailboxId !== undefined) {
    usableMailbox(mailboxes, changes.mailboxId);
    await lockTarget(client, userId, changes.mailboxId);
  }
  const given = COLUMNS.flatMap(([field, column]) => (changes[field] === undefined ? [] : [[column, changes[field]] as const]));
  const rows = await run<{ id: string }>(
    client,
    builder
      .set({ ...Object.fromEntries(given), ...(changedBy === undefined ? {} : { bulk_change_id: String(changedBy) }) })
      .where(selected)
      .where((changed) => changed.or(given.map(([column, value]) => changed(`m.${column}`, 'is distinct from', value))))
      .returning('m.id'),
  );
  return { updated: ascending(rows), deleted: [], changes };
}

/** Refuses a move to a mailbox the user does not have, or has locked. */
export function usableMailbox(mailboxes: MailboxCounters[], mailboxId: number): void {
  const mailbox = mailboxes.find((candidate) => candidate.id === mailboxId);
  if (!mailbox) throw new MailboxNotFoundError(mailboxId);
  if (mailbox.locked) throw new MailboxLockedError(mailboxId);
}

async function lockTarget(client: PoolClient, userId: number, mailboxId: number): Promise<void> {
  const { rows } = await client.query<{ locked: boolean }>({
    text: 'SELECT locked FROM mailboxes WHERE id = $1 AND user_id = $2 FOR KEY SHARE',
    values: [mailboxId, userId],
  });
  if (rows.length === 0) throw new MailboxDeletedError(mailboxId);
  if (rows[0].locked) throw new MailboxLockedError(mailboxId);
}

async function run<Row extends QueryResultRow>(client: PoolClient, statement: Compilable<Row>): Promise<Row[]> {
  const { sql: text, parameters } = statement.compile();
  return (await client.query<Row>({ text, values: [...parameters] })).rows;
}

const COLUMNS: Array<[keyof MailChanges, 'seen' | 'flagged' | 'important' | 'mailbox_id']> = [
  ['seen', 'seen'],
  ['flagged', 'flagged'],
  ['important', 'important'],
  ['mailboxId', 'mailbox_id'],
];

function ascending(rows: Array<{ id: string }>): number[] {
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}
