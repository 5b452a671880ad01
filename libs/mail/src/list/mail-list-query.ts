import { sql } from 'kysely';
import type { Pool } from 'pg';
import type { UserReads } from '@letterbox/db';
import { encodeCursor, type ListCursor } from './list-cursor';
import {
  afterCursor,
  checkMailboxes,
  filteredRows,
  mailConditions,
  mailConditionsInStatement,
  statementRows,
  mailExpressions,
  type MailConditions,
  type MailListFilter,
} from './mail-filter-sql';
import { mapSummaryRow, SUMMARY_COLUMNS, type MailListPage, type SummaryRow } from '../mail-views';
import { sharedMailboxCounters, type MailboxCounters } from '../mailboxes/mailbox-queries';
import { totalFromCounters } from './total-from-counters';
import { addHighlights, markHighlights } from '../search/search-highlight';
import type { SearchQuery } from '../search/search-query';
import { StatisticsSearchShares, type SearchShares } from '../search/search-shares';
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
 * How many mails a search for common words walks, in list order, before it gives up on
 * walking and takes its planned statement: enough for a page of hits of a word in one mail
 * of two hundred, few enough that a miss costs a few milliseconds.
 */
export const WALK_LIMIT = 20_000;
/** Searches estimated to match this share of all mail or more are looked for by walking the list first. */
export const COMMON_SHARE = 0.02;

/**
 * The mail list and its total, leaving out soft-deleted mail and mail in locked
 * mailboxes (mailConditions). Totals that mailbox counters can answer come from them;
 * other filters are counted. A page's statements all go to one pool, so its total and rows agree;
 * a search's or text filter's, to a heavy one within the user's limit of them (FilteredReads).
 */
export class MailListQuery {
  private readonly reads: FilteredReads;

  constructor(
    reads: UserReads,
    heavyReads: PerUserLimit,
    private readonly shares: SearchShares = new StatisticsSearchShares(),
  ) {
    this.reads = new FilteredReads(reads, heavyReads);
  }

  page(userId: number, request: MailListRequest): Promise<MailListPage> {
    return this.reads.run(userId, request.filter, (pool) => this.pageOn(pool, userId, request));
  }

  /**
   * A search (q=) is counted no further than its page: its total is the page's length, capped
   * when more follow. Counting further was two thirds of an operator search's time, and a
   * total like "more than 100" told the reader little more than "more".
   */
  private async pageOn(pool: Pool, userId: number, request: MailListRequest): Promise<MailListPage> {
    const { rows, counted } = await this.rowsAndTotal(pool, userId, request);
    const searchFirstPage = request.filter.search !== undefined && !request.cursor;
    const hasMore = rows.length > request.limit;
    const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
    const total = counted ?? { count: pageRows.length, capped: hasMore };
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

  /**
   * The page's rows, and a list's total (from the counters where they can answer it). The
   * counters are read first, as the conditions need their locked mailboxes, except for a search
   * of operators alone (operatorSearchRows).
   */
  private async rowsAndTotal(pool: Pool, userId: number, request: MailListRequest): Promise<{ rows: SearchPageRow[]; counted?: CountedTotal }> {
    const { search } = request.filter;
    if (search && search.terms.length === 0) return { rows: await this.operatorSearchRows(pool, userId, request) };
    const mailboxes = await sharedMailboxCounters(pool, userId);
    const where = mailConditions(userId, mailboxes, request.filter);
    if (search) return { rows: request.cursor ? await this.rows(pool, where, request) : await this.searchFirstPage(pool, where, request) };
    const [rows, counted] = await Promise.all([this.rows(pool, where, request), this.total(pool, where, mailboxes, request.filter)]);
    return { rows, counted };
  }

  /**
   * A search of operators alone in one statement, the counters unread (mailConditionsInStatement):
   * they were a third of its time. Only a search that finds nothing in a mailbox it names reads
   * them, to tell a missing or locked mailbox (refused) from an empty one. A search for words keeps
   * the counters' read: its statements walk thousands of mails, each checked against the locked
   * mailboxes, and a list of ids known beforehand (often none) was the cheaper check.
   */
  private async operatorSearchRows(pool: Pool, userId: number, request: MailListRequest): Promise<SearchPageRow[]> {
    const where = mailConditionsInStatement(userId, request.filter);
    const rows = request.cursor ? await this.rows(pool, where, request) : await this.searchFirstPage(pool, where, request);
    if (rows.length === 0 && (request.filter.mailboxId !== undefined || request.filter.search?.mailbox !== undefined)) {
      checkMailboxes(await sharedMailboxCounters(pool, userId), request.filter);
    }
    return rows;
  }

  private rows(pool: Pool, where: MailConditions, request: MailListRequest): Promise<SummaryRow[]> {
    const direction = sql.raw(request.order === 'desc' ? 'DESC' : 'ASC');
    const conditions = request.cursor ? mailExpressions.and([where.on('m'), afterCursor('m', request.cursor, request.order)]) : where.on('m');
    const statement = sql<SummaryRow>`SELECT ${sql.raw(SUMMARY_COLUMNS)} FROM mails m WHERE ${conditions}
        ORDER BY m.received_at ${direction}, m.id ${direction} LIMIT ${request.limit + 1}`;
    return filteredRows(pool, statement, request.filter, 'mail-list');
  }

  /**
   * A search's first page, and one row more when more follow, with their bodies when words are
   * searched (for the highlights). A search for words, or for more than one of sender, recipient
   * and subject, estimated common (SearchShares) is first answered by walking the list in order,
   * at most WALK_LIMIT mails; only if that walk finds less than a full page does it take the
   * statement planned for it, which answers the same.
   */
  private async searchFirstPage(pool: Pool, where: MailConditions, request: MailListRequest): Promise<SearchPageRow[]> {
    const search = request.filter.search;
    if (search && walkable(search) && (await this.shares.shareOf(pool, search)) >= COMMON_SHARE) {
      const walked = await this.firstHits(pool, where, request, 'walk');
      if (walked.length > request.limit) return walked;
    }
    // Operators alone need no bodies for highlights: the list's own statement, one read of each row.
    return search?.terms.length ? this.firstHits(pool, where, request, 'planned') : this.rows(pool, where, request);
  }

  /**
   * One statement: the page's hits, then their rows. `walk`: the newest (or
   * oldest) WALK_LIMIT mails the filter's mailbox and dates allow, each checked in turn, a
   * shape the planner cannot change and plans in a fraction of a millisecond. It is planned
   * for each search all the same: a generic plan, which cannot know the user has a million
   * mails, sorted the whole table instead of walking the index. `planned`: the filter's
   * conditions as the planner takes them, from the postings of a rare word, an address's
   * trigrams, or the list (see filteredRows).
   */
  private async firstHits(pool: Pool, where: MailConditions, request: MailListRequest, way: 'walk' | 'planned'): Promise<SearchPageRow[]> {
    const direction = sql.raw(request.order === 'desc' ? 'DESC' : 'ASC');
    const order = sql`ORDER BY m.received_at ${direction}, m.id ${direction}`;
    const pageAndOne = sql.lit(request.limit + 1);
    const hits =
      way === 'walk'
        ? sql`SELECT m.id FROM (SELECT * FROM mails m WHERE ${where.listed('m')} ${order} LIMIT ${sql.lit(WALK_LIMIT)}) AS m
               WHERE ${where.eachMail('m')} ${order} LIMIT ${pageAndOne}`
        : sql`SELECT m.id FROM mails m WHERE ${where.on('m')} ${order} LIMIT ${pageAndOne}`;
    const bodies = request.filter.search?.terms.length ? sql`, (SELECT s.body FROM mail_search s WHERE s.mail_id = m.id) AS search_body` : sql``;
    const statement = sql<SearchPageRow>`WITH hits AS MATERIALIZED (${hits})
        SELECT ${sql.raw(SUMMARY_COLUMNS)}${bodies} FROM mails m WHERE m.id IN (SELECT h.id FROM hits h) ${order}`;
    return way === 'walk' ? statementRows(pool, statement) : filteredRows(pool, statement, request.filter, 'search-first-page');
  }

  private async total(pool: Pool, where: MailConditions, mailboxes: MailboxCounters[], filter: MailListFilter): Promise<CountedTotal> {
    const fromCounters = totalFromCounters(mailboxes, filter);
    if (fromCounters !== undefined) return { count: fromCounters, capped: false };
    const statement = sql<{
      total: string;
    }>`SELECT count(*) AS total FROM (SELECT 1 FROM mails m WHERE ${where.on('m')} LIMIT ${sql.lit(MAX_COUNTED + 1)}) AS counted`;
    const [row] = await filteredRows(pool, statement, filter, 'mail-count');
    const counted = Number(row.total);
    return { count: Math.min(counted, MAX_COUNTED), capped: counted > MAX_COUNTED };
  }
}

/**
 * Whether a search may be walked first: one with words, where a walk is planned in a tenth of
 * the time the planner weighs the index's postings; or with more than one of sender, recipient
 * and subject, which the planner takes as independent when one newsletter has them all (29
 * hits estimated, 1,683 found; five trigram indexes read for 0.7 s where the walk took 30 ms).
 * A sender, recipient or subject alone is the planner's: its column's statistics tell it how
 * common it is, and it walked as fast as our walk.
 */
function walkable(search: SearchQuery): boolean {
  const parts = [search.from, search.to, search.subject].filter(Boolean).length;
  return search.terms.some((term) => !term.excluded) || parts > 1;
}

/** A total counted to a cap: `capped` when there are more. */
interface CountedTotal {
  count: number;
  capped: boolean;
}

/** A row of a search's first page: its body comes with it when words are searched. */
type SearchPageRow = SummaryRow & { search_body?: string | null };

function bodiesOf(rows: SearchPageRow[]): Map<number, string> {
  return new Map(rows.flatMap((row) => (typeof row.search_body === 'string' ? [[Number(row.id), row.search_body] as const] : [])));
}
