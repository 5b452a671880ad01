import type { Pool } from 'pg';
import type { UserReads } from '@letterbox/db';
import { encodeCursor, type ListCursor } from './list-cursor';
import { afterCursor, mailConditions, statementName, type MailConditions, type MailListFilter } from './mail-filter-sql';
import { mapSummaryRow, SUMMARY_COLUMNS, type MailSummary, type SummaryRow } from './mail-views';
import { mailboxCounters, type MailboxCounters } from './mailbox-queries';
import { addHighlights } from './search/search-highlight';

export interface MailListRequest {
  filter: MailListFilter;
  order: 'desc' | 'asc';
  limit: number;
  cursor?: ListCursor;
}

export interface MailListPage {
  items: MailSummary[];
  /** Counted up to MAX_COUNTED (MAX_SEARCH_COUNTED for a full-text search) when the mailbox counters cannot answer. */
  total: number;
  /** True when there are more than `total`: a count stops at MAX_COUNTED. */
  totalCapped?: boolean;
  nextCursor: string | null;
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
 * other filters are counted. A page's statements all go to one pool, so its total and rows agree.
 */
export class MailListQuery {
  constructor(private readonly reads: UserReads) {}

  async page(userId: number, request: MailListRequest): Promise<MailListPage> {
    const sql = await this.reads.poolFor(userId);
    const mailboxes = await mailboxCounters(sql, userId);
    const where = mailConditions(userId, mailboxes, request.filter);
    const searchFirstPage = Boolean(request.filter.search?.terms.length) && !request.cursor;
    const [rows, total] = searchFirstPage
      ? await this.searchFirstPage(sql, where, request)
      : await Promise.all([this.rows(sql, where, request), this.total(sql, where, mailboxes, request.filter)]);
    const hasMore = rows.length > request.limit;
    const items = (hasMore ? rows.slice(0, request.limit) : rows).map(mapSummaryRow);
    await addHighlights(sql, items, request.filter);
    const last = items[items.length - 1];
    return {
      items,
      total: total.count,
      ...(total.capped ? { totalCapped: true } : {}),
      nextCursor: hasMore && last ? encodeCursor({ receivedAt: new Date(last.receivedAt), id: last.id }) : null,
    };
  }

  private async rows(sql: Pool, where: MailConditions, request: MailListRequest): Promise<SummaryRow[]> {
    const values = [...where.values];
    const conditions = where.on('m');
    if (request.cursor) conditions.push(afterCursor('m', request.cursor, request.order, values));
    values.push(request.limit + 1);
    const direction = request.order === 'desc' ? 'DESC' : 'ASC';
    const text = `SELECT ${SUMMARY_COLUMNS} FROM mails m WHERE ${conditions.join(' AND ')}
        ORDER BY m.received_at ${direction}, m.id ${direction} LIMIT $${values.length}`;
    const { rows } = await sql.query<SummaryRow>({ name: statementName('mail-list', text, request.filter), text, values });
    return rows;
  }

  /**
   * A search's first page and its total from one planned statement: the hits' ids, in
   * order, up to the count's cap (a search is planned each time, see statementName, and
   * planning costs more than finding a page); then the page's rows by id.
   */
  private async searchFirstPage(sql: Pool, where: MailConditions, request: MailListRequest): Promise<[SummaryRow[], { count: number; capped: boolean }]> {
    const direction = request.order === 'desc' ? 'DESC' : 'ASC';
    const { rows: hits } = await sql.query<{ id: string }>({
      text: `SELECT m.id FROM mails m WHERE ${where.on('m').join(' AND ')}
              ORDER BY m.received_at ${direction}, m.id ${direction} LIMIT ${MAX_SEARCH_COUNTED + 1}`,
      values: where.values,
    });
    const text = `SELECT ${SUMMARY_COLUMNS} FROM mails m WHERE m.id = ANY($1::int8[]) ORDER BY m.received_at ${direction}, m.id ${direction}`;
    const { rows } = await sql.query<SummaryRow>({ name: `search-page-${direction}`, text, values: [hits.slice(0, request.limit + 1).map((hit) => hit.id)] });
    return [rows, { count: Math.min(hits.length, MAX_SEARCH_COUNTED), capped: hits.length > MAX_SEARCH_COUNTED }];
  }

  private async total(sql: Pool, where: MailConditions, mailboxes: MailboxCounters[], filter: MailListFilter): Promise<{ count: number; capped: boolean }> {
    const fromCounters = totalFromCounters(mailboxes, filter);
    if (fromCounters !== undefined) return { count: fromCounters, capped: false };
    const cap = filter.search?.terms.length ? MAX_SEARCH_COUNTED : MAX_COUNTED;
    const text = `SELECT count(*) AS total FROM (SELECT 1 FROM mails m WHERE ${where.on('m').join(' AND ')} LIMIT ${cap + 1}) AS counted`;
    const { rows } = await sql.query<{ total: string }>({ name: statementName('mail-count', text, filter), text, values: where.values });
    const counted = Number(rows[0].total);
    return { count: Math.min(counted, cap), capped: counted > cap };
  }
}

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
