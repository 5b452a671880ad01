import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { encodeCursor, type ListCursor } from './list-cursor';
import { MailboxLockedError, MailboxNotFoundError } from './mail-errors';
import { mapSummaryRow, SUMMARY_COLUMNS, type MailSummary, type SummaryRow } from './mail-views';
import type { MailboxCounters, MailboxQueries } from './mailbox-queries';

export interface MailListFilter {
  mailboxId?: number;
  seen?: boolean;
  flagged?: boolean;
  hasAttachments?: boolean;
  /** Part of the sender's address or name, case-insensitive. */
  from?: string;
  /** Part of the subject, case-insensitive. */
  subject?: string;
  since?: Date;
  until?: Date;
}

export interface MailListRequest {
  filter: MailListFilter;
  order: 'desc' | 'asc';
  limit: number;
  cursor?: ListCursor;
}

export interface MailListPage {
  items: MailSummary[];
  total: number;
  nextCursor: string | null;
}

/**
 * The mail list and its total, leaving out soft-deleted mail and mail in locked
 * mailboxes. Locked mailbox ids are read first and excluded by id, never by joining
 * mails to mailboxes: the join made the planner visit every mailbox row for every mail.
 * Totals that mailbox counters can answer come from them; other filters are counted.
 */
export class MailListQuery {
  constructor(
    private readonly sql: Pool,
    private readonly mailboxes: MailboxQueries,
  ) {}

  async page(userId: number, request: MailListRequest): Promise<MailListPage> {
    const mailboxes = await this.mailboxes.counters(userId);
    const lockedIds = this.lockedIds(mailboxes, request.filter.mailboxId);
    const where = buildWhere(userId, lockedIds, request.filter);
    const [rows, total] = await Promise.all([this.rows(where, request), this.total(where, mailboxes, request.filter)]);
    const hasMore = rows.length > request.limit;
    const items = (hasMore ? rows.slice(0, request.limit) : rows).map(mapSummaryRow);
    const last = items[items.length - 1];
    return {
      items,
      total,
      nextCursor: hasMore && last ? encodeCursor({ receivedAt: new Date(last.receivedAt), id: last.id }) : null,
    };
  }

  private lockedIds(mailboxes: MailboxCounters[], mailboxId: number | undefined): number[] {
    if (mailboxId !== undefined) {
      const mailbox = mailboxes.find((candidate) => candidate.id === mailboxId);
      if (!mailbox) throw new MailboxNotFoundError(mailboxId);
      if (mailbox.locked) throw new MailboxLockedError(mailboxId);
    }
    return mailboxes.filter((mailbox) => mailbox.locked).map((mailbox) => mailbox.id);
  }

  private async rows(where: WhereClause, request: MailListRequest): Promise<SummaryRow[]> {
    const values = [...where.values];
    const conditions = [...where.conditions];
    if (request.cursor) {
      values.push(request.cursor.receivedAt, request.cursor.id);
      const comparison = request.order === 'desc' ? '<' : '>';
      conditions.push(`(m.received_at, m.id) ${comparison} ($${values.length - 1}, $${values.length})`);
    }
    values.push(request.limit + 1);
    const direction = request.order === 'desc' ? 'DESC' : 'ASC';
    const text = `SELECT ${SUMMARY_COLUMNS} FROM mails m WHERE ${conditions.join(' AND ')}
        ORDER BY m.received_at ${direction}, m.id ${direction} LIMIT $${values.length}`;
    const { rows } = await this.sql.query<SummaryRow>({ name: statementName('mail-list', text), text, values });
    return rows;
  }

  private async total(where: WhereClause, mailboxes: MailboxCounters[], filter: MailListFilter): Promise<number> {
    const fromCounters = totalFromCounters(mailboxes, filter);
    if (fromCounters !== undefined) return fromCounters;
    const text = `SELECT count(*) AS total FROM mails m WHERE ${where.conditions.join(' AND ')}`;
    const { rows } = await this.sql.query<{ total: string }>({ name: statementName('mail-count', text), text, values: where.values });
    return Number(rows[0].total);
  }
}

interface WhereClause {
  conditions: string[];
  values: unknown[];
}

function buildWhere(userId: number, lockedIds: number[], filter: MailListFilter): WhereClause {
  const values: unknown[] = [userId];
  const conditions = ['m.user_id = $1', 'm.deleted_at IS NULL'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (lockedIds.length > 0) add((p) => `m.mailbox_id <> ALL(${p}::int[])`, lockedIds);
  if (filter.mailboxId !== undefined) add((p) => `m.mailbox_id = ${p}`, filter.mailboxId);
  if (filter.seen !== undefined) add((p) => `m.seen = ${p}`, filter.seen);
  if (filter.flagged !== undefined) add((p) => `m.flagged = ${p}`, filter.flagged);
  if (filter.hasAttachments !== undefined) add((p) => `m.has_attachments = ${p}`, filter.hasAttachments);
  if (filter.from) add((p) => `(m.from_address ILIKE ${p} OR m.from_name ILIKE ${p})`, containsPattern(filter.from));
  if (filter.subject) add((p) => `m.subject ILIKE ${p}`, containsPattern(filter.subject));
  if (filter.since) add((p) => `m.received_at >= ${p}`, filter.since);
  if (filter.until) add((p) => `m.received_at < ${p}`, filter.until);
  return { conditions, values };
}

/**
 * Filters combine into a bounded set of query shapes; naming each one lets every pooled
 * connection prepare it once, where planning cost four times what running it does.
 */
function statementName(prefix: string, text: string): string {
  return `${prefix}-${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
}

function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
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
