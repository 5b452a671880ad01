import { sql } from 'kysely';
import type { Pool } from 'pg';
import { namedStatement, type UserReads } from '@letterbox/db';
import { encodeCursor, type ListCursor } from './list-cursor';
import { afterCursor, filteredRows, mailConditions, mailExpressions, type MailConditions, type MailListFilter } from './mail-filter-sql';
import { mapSummaryRow, SUMMARY_COLUMNS, type MailListPage, type SummaryRow } from '../mail-views';
import { mailboxCounters, type MailboxCounters } from '../mailboxes/mailbox-queries';
import { addHighlights } from '../search/search-highlight';
import { FilteredReads } from '../heavy-reads/filtered-reads';
import type { PerUserLimit } from '../heavy-reads/per-user-limit';

export interface MailListRequest {
  filter: MailListFilter;
  order: 'desc' | 'asc';
  limit: number;
  cursor?: ListCursor;
}

/** A filtered total is counted this far and no further: bounded work for a filter matching most of a mailbox. */
export const MAX_COUNTED = 1_000;
/**
 * A full-text search's total stops sooner: counting a word in most mail walks the list
 * checking each mail's words, and at 1,000 that was nine tenths of the search's cost.
 */
export const MAX_SEARCH_COUNTED = 100;

/**
 * The mail list and its total, leaving out soft-deleted mail and mail in locked
 * mailboxes (mailConditions). Totals that mailbox counters can answer come from them;
 * other filters are counted. A page's statements all go to one pool, so its total and rows agree;
 * a search's or text filter's, to a heavy one within the user's limit of them (FilteredReads).
 */
export class MailListQuery {
  private readonly reads: FilteredReads;

  constructor(reads: UserReads, heavyReads: PerUserLimit) {
    this.reads = new FilteredReads(reads, heavyReads);
  }

  page(userId: number, request: MailListRequest): Promise<MailListPage> {
    return this.reads.run(userId, request.filter, (pool) => this.pageOn(pool, userId, request));
  }

  private async pageOn(pool: Pool, userId: number, request: MailListRequest): Promise<MailListPage> {
    const mailboxes = await mailboxCounters(pool, userId);
    const where = mailConditions(userId, mailboxes, request.filter);
    const searchFirstPage = Boolean(request.filter.search?.terms.length) && !request.cursor;
    const [rows, total] = searchFirstPage
      ? await this.searchFirstPage(pool, where, request)
      : await Promise.all([this.rows(pool, where, request), this.total(pool, where, mailboxes, request.filter)]);
    const hasMore = rows.length > request.limit;
    const items = (hasMore ? rows.slice(0, request.limit) : rows).map(mapSummaryRow);
    await addHighlights(pool, items, request.filter);
    const last = items[items.length - 1];
    return {
      items,
      total: total.count,
      ...(total.capped ? { totalCapped: true } : {}),
      nextCursor: hasMore && last ? encodeCursor({ receivedAt: new Date(last.receivedAt), id: last.id }) : null,
    };
  }

  private rows(pool: Pool, where: MailConditions, request: MailListRequest): Promise<SummaryRow[]> {
    const direction = sql.raw(request.order === 'desc' ? 'DESC' : 'ASC');
    const conditions = request.cursor ? mailExpressions.and([where.on('m'), afterCursor('m', request.cursor, request.order)]) : where.on('m');
    const statement = sql<SummaryRow>`SELECT ${sql.raw(SUMMARY_COLUMNS)} FROM mails m WHERE ${conditions}
        ORDER BY m.received_at ${direction}, m.id ${direction} LIMIT ${request.limit + 1}`;
    return filteredRows(pool, statement, request.filter, 'mail-list');
  }

  /**
   * A search's first page and its total from one planned statement: the hits' ids, in
   * order, up to the count's cap (a search is planned each time, see filteredRows, and
   * planning costs more than finding a page); then the page's rows by id.
   */
  private async searchFirstPage(pool: Pool, where: MailConditions, request: MailListRequest): Promise<[SummaryRow[], { count: number; capped: boolean }]> {
    const direction = request.order === 'desc' ? 'DESC' : 'ASC';
    const hits = await filteredRows(
      pool,
      sql<{ id: string }>`SELECT m.id FROM mails m WHERE ${where.on('m')}
        ORDER BY m.received_at ${sql.raw(direction)}, m.id ${sql.raw(direction)} LIMIT ${sql.lit(MAX_SEARCH_COUNTED + 1)}`,
      request.filter,
      'search-hits',
    );
    const { rows } = await pool.query<SummaryRow>({ ...SEARCH_PAGE[request.order], values: [hits.slice(0, request.limit + 1).map((hit) => hit.id)] });
    return [rows, { count: Math.min(hits.length, MAX_SEARCH_COUNTED), capped: hits.length > MAX_SEARCH_COUNTED }];
  }

  private async total(pool: Pool, where: MailConditions, mailboxes: MailboxCounters[], filter: MailListFilter): Promise<{ count: number; capped: boolean }> {
    const fromCounters = totalFromCounters(mailboxes, filter);
    if (fromCounters !== undefined) return { count: fromCounters, capped: false };
    const cap = filter.search?.terms.length ? MAX_SEARCH_COUNTED : MAX_COUNTED;
    const statement = sql<{ total: string }>`SELECT count(*) AS total FROM (SELECT 1 FROM mails m WHERE ${where.on('m')} LIMIT ${sql.lit(cap + 1)}) AS counted`;
    const [row] = await filteredRows(pool, statement, filter, 'mail-count');
    const counted = Number(row.total);
    return { count: Math.min(counted, cap), capped: counted > cap };
  }
}

const searchPageText = (direction: string) =>
  `SELECT ${SUMMARY_COLUMNS} FROM mails m WHERE m.id = ANY($1::int8[]) ORDER BY m.received_at ${direction}, m.id ${direction}`;
/** A search's first page by the ids of its hits, in either order. */
const SEARCH_PAGE = {
  desc: namedStatement('search-page-DESC', searchPageText('DESC')),
  asc: namedStatement('search-page-ASC', searchPageText('ASC')),
};

/** The total straight from mailbox counters, when the filter is one they keep. */
function totalFromCounters(mailboxes: MailboxCounters[], filter: MailListFilter): number | undefined {
  const { mailboxId, seen, ...others } = filter;
  if (Object.values(others).some((value) => value !== undefined)) return undefined;
  const counted = mailboxes.filter((mailbox) => !mailbox.locked && (mailboxId === undefined || mailbox.id === mailboxId));
  return counted.reduce((sum, mailbox) => {
    if (seen === undefined) return sum + mailbox.totalCount;
    return sum + (seen ? mailbox.totalCount - mailbox.unreadCount : mailbox.unreadCount);
  }, 0);
}
