import { sql, type RawBuilder } from 'kysely';
import type { Pool } from 'pg';
import { namedStatement, type UserReads } from '@letterbox/db';
import type { MailAddress } from '@letterbox/mime';
import { encodeCursor, type ListCursor } from '../list/list-cursor';
import { ThreadNotFoundError } from '../mail-errors';
import { afterCursor, filteredRows, mailConditions, mailExpressions, type MailConditions, type MailListFilter } from '../list/mail-filter-sql';
import { mapSummaryRow, SUMMARY_COLUMNS, type MailSummary, type SummaryRow, type ThreadListPage, type ThreadSummary } from '../mail-views';
import { mailboxCounters } from '../mailboxes/mailbox-queries';
import { addHighlights } from '../search/search-highlight';
import { FilteredReads } from '../heavy-reads/filtered-reads';
import type { PerUserLimit } from '../heavy-reads/per-user-limit';

export interface ThreadListRequest {
  filter: MailListFilter;
  limit: number;
  cursor?: ListCursor;
}

const MAX_PARTICIPANTS = 5;
/** More than a thread takes (mail_thread_of stops at 100), so a page of one is always whole. */
const MAX_THREAD_MESSAGES = 500;

type ThreadRow = SummaryRow & { message_count: string; unread_count: string; any_attachments: boolean; sender_addresses: string[]; sender_names: string[] };

/**
 * Conversations of one user's visible mail (not deleted, not in a locked mailbox), newest
 * first. Thread totals count the thread's visible mail, whatever the filter, as mail
 * clients show them; they and the first senders come from the `threads` summaries. A search's
 * or text filter's page is read on a heavy pool, within the user's limit of them (FilteredReads).
 */
export class ThreadQueries {
  private readonly filteredReads: FilteredReads;

  constructor(
    private readonly reads: UserReads,
    heavyReads: PerUserLimit,
  ) {
    this.filteredReads = new FilteredReads(reads, heavyReads);
  }

  page(userId: number, request: ThreadListRequest): Promise<ThreadListPage> {
    return this.filteredReads.run(userId, request.filter, (pool) => this.pageOn(pool, userId, request));
  }

  private async pageOn(pool: Pool, userId: number, request: ThreadListRequest): Promise<ThreadListPage> {
    const rows = isUnfiltered(request.filter)
      ? await everyThread(pool, userId, request)
      : await filteredRows(
          pool,
          matchingThreads(mailConditions(userId, await mailboxCounters(pool, userId), request.filter), request),
          request.filter,
          'thread-list',
        );
    const hasMore = rows.length > request.limit;
    const items = (hasMore ? rows.slice(0, request.limit) : rows).map(mapThreadRow);
    await addHighlights(
      pool,
      items.map((item) => item.latest),
      request.filter,
    );
    const last = items[items.length - 1]?.latest;
    return { items, nextCursor: hasMore && last ? encodeCursor({ receivedAt: new Date(last.receivedAt), id: last.id }) : null };
  }

  /** The thread's visible mail, oldest first. */
  async messages(userId: number, threadId: number): Promise<MailSummary[]> {
    const sql = await this.reads.poolFor(userId);
    const mailboxes = await mailboxCounters(sql, userId);
    const lockedIds = mailboxes.filter((mailbox) => mailbox.locked).map((mailbox) => mailbox.id);
    const { rows } = await sql.query<SummaryRow>({ ...THREAD_MESSAGES, values: [userId, threadId, lockedIds] });
    if (rows.length === 0) throw new ThreadNotFoundError(threadId);
    return rows.map(mapSummaryRow);
  }
}

const THREAD_MESSAGES = namedStatement(
  'thread-messages',
  `SELECT ${SUMMARY_COLUMNS} FROM mails m
    WHERE m.user_id = $1 AND m.thread_id = $2 AND m.deleted_at IS NULL AND m.mailbox_id <> ALL($3::int[])
    ORDER BY m.received_at, m.id LIMIT ${MAX_THREAD_MESSAGES}`,
);

const THREAD_COLUMNS = `COALESCE(t.message_count, 1) AS message_count, COALESCE(t.unread_count, CASE WHEN m.seen THEN 0 ELSE 1 END) AS unread_count,
  COALESCE(t.has_attachments, m.has_attachments) AS any_attachments, COALESCE(t.sender_addresses, ARRAY[m.from_address]) AS sender_addresses,
  COALESCE(t.sender_names, ARRAY[m.from_name]) AS sender_names`;

function isUnfiltered(filter: MailListFilter): boolean {
  return Object.values(filter).every((value) => value === undefined);
}

/**
 * Every conversation: one walk of the thread summaries (kept by trigger, visible mail
 * only) newest first, each joined to its newest mail: about the cost of the flat list.
 * The summaries leave out locked mail already: every thread needs only the user, not the mailboxes.
 */
async function everyThread(pool: Pool, userId: number, { cursor, limit }: ThreadListRequest): Promise<ThreadRow[]> {
  const { rows } = await pool.query<ThreadRow>(
    cursor ? { ...EVERY_THREAD_AFTER, values: [userId, limit + 1, cursor.receivedAt, cursor.id] } : { ...EVERY_THREAD, values: [userId, limit + 1] },
  );
  return rows;
}

const everyThreadText = (after: string) => `SELECT ${SUMMARY_COLUMNS}, ${THREAD_COLUMNS}
  FROM threads t JOIN mails m ON m.id = t.latest_mail_id
 WHERE t.user_id = $1 ${after}
 ORDER BY t.latest_received_at DESC, t.latest_mail_id DESC LIMIT $2`;
const EVERY_THREAD = namedStatement('thread-list-all', everyThreadText(''));
const EVERY_THREAD_AFTER = namedStatement('thread-list-all-after', everyThreadText('AND (t.latest_received_at, t.latest_mail_id) < ($3, $4)'));

/**
 * The conversations with mail matching a filter, each where its newest matching mail
 * falls: the list index is walked newest first and a mail is kept only if no newer
 * matching mail of its thread exists (one probe of the thread index, which holds what
 * visibility needs). Totals come from the thread summaries.
 */
function matchingThreads(where: MailConditions, { cursor, limit }: ThreadListRequest): RawBuilder<ThreadRow> {
  const conditions = cursor ? mailExpressions.and([where.on('m'), afterCursor('m', cursor, 'desc')]) : where.on('m');
  return sql<ThreadRow>`WITH latest AS (
        SELECT ${sql.raw(SUMMARY_COLUMNS)}, m.user_id FROM mails m
         WHERE ${conditions}
           AND NOT EXISTS (SELECT 1 FROM mails n WHERE ${where.on('n')} AND n.thread_id = m.thread_id
                              AND (n.received_at, n.id) > (m.received_at, m.id))
         ORDER BY m.received_at DESC, m.id DESC LIMIT ${limit + 1}
      )
      SELECT m.*, ${sql.raw(THREAD_COLUMNS)}
        FROM latest m LEFT JOIN threads t ON t.user_id = m.user_id AND t.thread_id = m.thread_id
       ORDER BY m.received_at DESC, m.id DESC`;
}

function mapThreadRow(row: ThreadRow): ThreadSummary {
  const participants = new Map<string, MailAddress>();
  row.sender_addresses.forEach((address, index) => {
    if (participants.size < MAX_PARTICIPANTS && !participants.has(address)) participants.set(address, { name: row.sender_names[index], address });
  });
  return {
    threadId: Number(row.thread_id),
    latest: mapSummaryRow(row),
    messageCount: Number(row.message_count),
    unreadCount: Number(row.unread_count),
    hasAttachments: row.any_attachments,
    participants: [...participants.values()],
  };
}
