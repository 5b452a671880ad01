import type { Pool } from 'pg';
import type { ListCursor } from './list-cursor';
import { afterCursor, statementName, type MailListFilter } from './mail-filter-sql';
import { SUMMARY_COLUMNS, type SummaryRow } from './mail-views';
import type { MailboxCounters } from './mailbox-queries';

/** The filters whose total the mailbox counters keep: the everyday pages of a mailbox, read or unread. */
export type CounterFilter = Pick<MailListFilter, 'mailboxId' | 'seen'>;

/** Whether the filter is a CounterFilter and nothing more. */
export function isCounterFilter(filter: MailListFilter): boolean {
  const { mailboxId: _mailboxId, seen: _seen, ...others } = filter;
  return Object.values(others).every((value) => value === undefined);
}

export interface CounterPageRequest {
  filter: CounterFilter;
  order: 'desc' | 'asc';
  limit: number;
  cursor?: ListCursor;
}

type PageRow = { mailboxes: string | null } & ({ id: null } | SummaryRow);

/**
 * A page of mail and the user's mailbox counters (its total, and whether the filter's
 * mailbox may be shown) in one statement, where two round trips cost a sixth of the list's
 * CPU in socket writes alone. Locked mailboxes are left out by their ids, read in the same
 * statement (never by joining mails to mailboxes: the planner then visited every mailbox row
 * for every mail). The counters come back once, as text on the first row (the only one
 * when there is no mail): repeated on every row, they were more bytes than the page.
 */
export async function pageWithCounters(sql: Pool, userId: number, request: CounterPageRequest): Promise<{ rows: SummaryRow[]; mailboxes: MailboxCounters[] }> {
  const values: unknown[] = [userId];
  const conditions = ['m.user_id = $1', 'm.deleted_at IS NULL', 'm.mailbox_id <> ALL(ARRAY(SELECT id FROM mailboxes WHERE user_id = $1 AND locked))'];
  const bind = (column: string, value: unknown) => {
    values.push(value);
    conditions.push(`m.${column} = $${values.length}`);
  };
  if (request.filter.mailboxId !== undefined) bind('mailbox_id', request.filter.mailboxId);
  if (request.filter.seen !== undefined) bind('seen', request.filter.seen);
  if (request.cursor) conditions.push(afterCursor('m', request.cursor, request.order, values));
  values.push(request.limit + 1);
  const direction = request.order === 'desc' ? 'DESC' : 'ASC';
  const text = `SELECT CASE WHEN p.position IS NULL OR p.position = 1 THEN b.mailboxes END AS mailboxes, p.*
      FROM (SELECT json_agg(json_build_object('id', id, 'name', name, 'role', role, 'locked', locked,
                    'totalCount', total_count, 'unreadCount', unread_count))::text AS mailboxes
              FROM mailboxes WHERE user_id = $1) b
      LEFT JOIN LATERAL (SELECT page.*, row_number() OVER (ORDER BY page.received_at ${direction}, page.id ${direction}) AS position
          FROM (SELECT ${SUMMARY_COLUMNS} FROM mails m WHERE ${conditions.join(' AND ')}
                 ORDER BY m.received_at ${direction}, m.id ${direction} LIMIT $${values.length}) page) p ON true
      ORDER BY p.position`;
  const { rows } = await sql.query<PageRow>({ name: statementName('mail-page', text, request.filter), text, values });
  const counters = rows[0].mailboxes;
  return {
    rows: rows.filter((row): row is PageRow & SummaryRow => row.id !== null),
    mailboxes: counters ? (JSON.parse(counters) as MailboxCounters[]) : [],
  };
}
