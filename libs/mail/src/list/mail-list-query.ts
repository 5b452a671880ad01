import { sql } from 'kysely';
import type { Pool } from 'pg';
import type { UserReads } from '@letterbox/db';
import { encodeCursor, type ListCursor } from './list-cursor';
import { afterCursor, filteredRows, mailConditions, mailExpressions, type MailConditions, type MailListFilter } from './mail-filter-sql';
import { mapSummaryRow, SUMMARY_COLUMNS, type MailListPage, type SummaryRow } from '../mail-views';
import { mailboxCounters, type MailboxCounters } from '../mailboxes/mailbox-queries';
import { totalFromCounters } from './total-from-counters';
import { addHighlights, markHighlights } from '../search/search-highlight';
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
 * A search's (q=) total stops sooner: counting a word or an operator's match in most mail
 * walks the list checking each mail, and at 1,000 that was nine tenths of the search's cost.
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
    const searchFirstPage = request.filter.search !== undefined && !request.cursor;
    const [rows, total] = searchFirstPage
      ? await this.searchFirstPage(pool, where, request)
      : await Promise.all([this.rows(pool, where, request), this.total(pool, where, mailboxes, request.filter)]);
    const hasMore = rows.length > request.limit;
    const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
    const items = pageRows.map(mapSummaryRow);
    if (searchFirstPage) markHighlights(items, bodiesOf(pageRows), request.filter);
    else await addHighlights(pool, items, request.filter);
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
   * A search's first page and its total from one statement: its hits, in order, up to the
   * count's cap (walked newest first, or read from an index when few mails match, as the
   * planner estimates for this query: see filteredRows), then the page's rows among them,
   * with their bodies when words are searched (for the highlights).
   */
  private async searchFirstPage(pool: Pool, where: MailConditions, request: MailListRequest): Promise<[SearchPageRow[], { count: number; capped: boolean }]> {
    const direction = sql.raw(request.order === 'desc' ? 'DESC' : 'ASC');
    const bodies = request.filter.search?.terms.length ? sql`, (SELECT s.body FROM mail_search s WHERE s.mail_id = m.id) AS search_body` : sql``;
    const rows = await filteredRows(
      pool,
      sql<SearchPageRow & { hit_count: string }>`WITH hits AS MATERIALIZED (
          SELECT m.id, m.received_at FROM mails m WHERE ${where.on('m')}
           ORDER BY m.received_at ${direction}, m.id ${direction} LIMIT ${sql.lit(MAX_SEARCH_COUNTED + 1)})
        SELECT ${sql.raw(SUMMARY_COLUMNS)}, (SELECT count(*) FROM hits) AS hit_count${bodies} FROM mails m
         WHERE m.id IN (SELECT h.id FROM hits h ORDER BY h.received_at ${direction}, h.id ${direction} LIMIT ${request.limit + 1})
         ORDER BY m.received_at ${direction}, m.id ${direction}`,
      request.filter,
      'search-first-page',
    );
    const hits = Number(rows[0]?.hit_count ?? 0);
    return [rows, { count: Math.min(hits, MAX_SEARCH_COUNTED), capped: hits > MAX_SEARCH_COUNTED }];
  }

  private async total(pool: Pool, where: MailConditions, mailboxes: MailboxCounters[], filter: MailListFilter): Promise<{ count: number; capped: boolean }> {
    const fromCounters = totalFromCounters(mailboxes, filter);
    if (fromCounters !== undefined) return { count: fromCounters, capped: false };
    const cap = filter.search ? MAX_SEARCH_COUNTED : MAX_COUNTED;
    const statement = sql<{ total: string }>`SELECT count(*) AS total FROM (SELECT 1 FROM mails m WHERE ${where.on('m')} LIMIT ${sql.lit(cap + 1)}) AS counted`;
    const [row] = await filteredRows(pool, statement, filter, 'mail-count');
    const counted = Number(row.total);
    return { count: Math.min(counted, cap), capped: counted > cap };
  }
}

/** A row of a search's first page: its body comes with it when words are searched. */
type SearchPageRow = SummaryRow & { search_body?: string | null };

function bodiesOf(rows: SearchPageRow[]): Map<number, string> {
  return new Map(rows.flatMap((row) => (typeof row.search_body === 'string' ? [[Number(row.id), row.search_body] as const] : [])));
}
