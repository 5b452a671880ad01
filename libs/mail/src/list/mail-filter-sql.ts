import { createHash } from 'node:crypto';
import { expressionBuilder, sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Pool, QueryResultRow } from 'pg';
import { queryBuilder, type Tables } from '@letterbox/db';
import type { ListCursor } from './list-cursor';
import type { MailboxCounters } from '../mailboxes/mailbox-queries';
import { MailboxLockedError, MailboxNotFoundError } from '../mail-errors';
import { searchQuerySql } from '../search/search-document';
import { SearchQueryError, type SearchQuery } from '../search/search-query';
import { searchableText } from '../search/search-text';

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
  /** A parsed `q=`: its operators and full-text terms, on top of the rest. */
  search?: SearchQuery;
}

/** `mails` as a filter's statements name it: a mail (`m`), and another of its thread (`n`). */
export type MailAlias = 'm' | 'n';

type MailSources = Tables & Record<MailAlias, Tables['mails']>;

/** Typed expressions on the mails of a filter's statements, and on the tables their subqueries read. */
export const mailExpressions = expressionBuilder<MailSources, MailAlias>();

/**
 * A filter as one SQL condition on the user's visible mail, for either alias of `mails`,
 * so that a query can apply the same filter to a mail and to the other mails of its thread.
 */
export interface MailConditions {
  on(alias: MailAlias): Expression<SqlBool>;
  /** The part a walk of a list index in order serves: the user's visible mail, its mailbox and dates. */
  listed(alias: MailAlias): Expression<SqlBool>;
  /**
   * The whole filter with its words tested on each mail's own search row, never read from
   * the index's postings: for a statement that walks the list and checks mail after mail.
   */
  eachMail(alias: MailAlias): Expression<SqlBool>;
}

type Condition = (m: MailAlias) => Expression<SqlBool>;

/**
 * Locked mailbox ids are read first (from the counters the caller has) and excluded by
 * id, never by joining mails to mailboxes: the join made the planner visit every mailbox
 * row for every mail. A filter naming a missing or locked mailbox is refused, here.
 */
export function mailConditions(userId: number, mailboxes: MailboxCounters[], filter: MailListFilter): MailConditions {
  checkMailboxes(mailboxes, filter);
  const eb = mailExpressions;
  const lockedIds = mailboxes.filter((mailbox) => mailbox.locked).map((mailbox) => mailbox.id);
  const named = filter.search?.mailbox;
  return conditionsOf(userId, filter, {
    notLocked: lockedIds.length > 0 ? (m) => sql<SqlBool>`${eb.ref(`${m}.mailbox_id`)} <> ALL(${lockedIds}::int[])` : undefined,
    named: named === undefined ? undefined : (m) => eb(`${m}.mailbox_id`, '=', mailboxNamed(mailboxes, named).id),
  });
}

/**
 * The same conditions for a statement that reads no counters first: its locked mailbox ids,
 * and the mailbox `in:` names, come from subqueries run once before the mails are read (an
 * InitPlan; still no join of mails to mailboxes). A filter naming a missing or locked mailbox
 * then finds nothing, and the caller that found nothing asks checkMailboxes why: a search
 * spends no statement on the mailboxes it does not name.
 */
export function mailConditionsInStatement(userId: number, filter: MailListFilter): MailConditions {
  const eb = mailExpressions;
  const named = filter.search?.mailbox;
  const lockedIds = sql`ARRAY(SELECT b.id FROM mailboxes b WHERE b.user_id = ${userId} AND b.locked)`;
  return conditionsOf(userId, filter, {
    notLocked: (m) => sql<SqlBool>`${eb.ref(`${m}.mailbox_id`)} <> ALL(${lockedIds})`,
    named: named === undefined ? undefined : (m) => sql<SqlBool>`${eb.ref(`${m}.mailbox_id`)} = (${namedMailboxId(userId, named)})`,
  });
}

/** Refuses a filter that names, by id or by `in:`, a mailbox the user does not have or has locked. */
export function checkMailboxes(mailboxes: MailboxCounters[], filter: MailListFilter): void {
  if (filter.mailboxId !== undefined) {
    const mailbox = mailboxes.find((candidate) => candidate.id === filter.mailboxId);
    if (!mailbox) throw new MailboxNotFoundError(filter.mailboxId);
    if (mailbox.locked) throw new MailboxLockedError(filter.mailboxId);
  }
  if (filter.search?.mailbox !== undefined) mailboxNamed(mailboxes, filter.search.mailbox);
}

/** How a filter's statement leaves out locked mailboxes (none locked: nothing to leave out) and finds the one `in:` names. */
interface MailboxTerms {
  notLocked?: Condition;
  named?: Condition;
}

function conditionsOf(userId: number, filter: MailListFilter, mailboxTerms: MailboxTerms): MailConditions {
  const eb = mailExpressions;
  const { mailboxId, search } = filter;
  const listed: Condition[] = [(m) => eb(`${m}.user_id`, '=', userId), (m) => eb(`${m}.deleted_at`, 'is', null)];
  if (mailboxTerms.notLocked) listed.push(mailboxTerms.notLocked);
  if (mailboxId !== undefined) listed.push((m) => eb(`${m}.mailbox_id`, '=', mailboxId));
  if (mailboxTerms.named) listed.push(mailboxTerms.named);
  listed.push(...dateConditions(filter), ...(search ? dateConditions(search) : []));
  const checked = [...fieldConditions(filter), ...(search ? fieldConditions(search) : [])];
  const words = search ? searchConditions(userId, search) : { fields: [], postings: [], eachMail: [] };
  const all = (conditions: Condition[]) => (alias: MailAlias) => eb.and(conditions.map((condition) => condition(alias)));
  return {
    on: all([...listed, ...checked, ...words.fields, ...words.postings]),
    listed: all(listed),
    eachMail: all([...listed, ...checked, ...words.fields, ...words.eachMail]),
  };
}

/** What a list filter and a search's operators both can ask of a mail. */
type MailFields = Pick<MailListFilter, 'seen' | 'flagged' | 'hasAttachments' | 'from' | 'subject'>;

function dateConditions({ since, until }: Pick<MailListFilter, 'since' | 'until'>): Condition[] {
  const eb = mailExpressions;
  const conditions: Condition[] = [];
  if (since) conditions.push((m) => eb(`${m}.received_at`, '>=', since));
  if (until) conditions.push((m) => eb(`${m}.received_at`, '<', until));
  return conditions;
}

function fieldConditions({ seen, flagged, hasAttachments, from, subject }: MailFields): Condition[] {
  const eb = mailExpressions;
  const conditions: Condition[] = [];
  if (seen !== undefined) conditions.push((m) => eb(`${m}.seen`, '=', seen));
  if (flagged !== undefined) conditions.push((m) => eb(`${m}.flagged`, '=', flagged));
  if (hasAttachments !== undefined) conditions.push((m) => eb(`${m}.has_attachments`, '=', hasAttachments));
  if (from) {
    const pattern = containsPattern(from);
    conditions.push((m) => eb.or([eb(`${m}.from_address`, 'ilike', pattern), eb(`${m}.from_name`, 'ilike', pattern)]));
  }
  if (subject) conditions.push((m) => eb(`${m}.subject`, 'ilike', containsPattern(subject)));
  return conditions;
}

/**
 * A search's operators beyond the filter's (its mailbox, dates and fields are taken with
 * the filter's), and its text two ways: as a semi-join on the search index, where the planner
 * may start from the index's postings (a rare word) or walk the list in order checking each
 * mail (a common one); or as a test of each mail's own search row, for a statement that walks.
 */
function searchConditions(userId: number, search: SearchQuery): { fields: Condition[]; postings: Condition[]; eachMail: Condition[] } {
  const eb = mailExpressions;
  const fields: Condition[] = [];
  const { to, answered, minSize, maxSize, terms } = search;
  if (to) {
    const pattern = containsPattern(to);
    fields.push((m) =>
      eb.or([eb(eb.cast<string>(`${m}.to_addresses`, 'text'), 'ilike', pattern), eb(eb.cast<string>(`${m}.cc_addresses`, 'text'), 'ilike', pattern)]),
    );
  }
  if (answered !== undefined) fields.push((m) => eb(`${m}.answered`, '=', answered));
  if (minSize !== undefined) fields.push((m) => eb(`${m}.size`, '>', minSize));
  if (maxSize !== undefined) fields.push((m) => eb(`${m}.size`, '<', maxSize));
  if (terms.length === 0) return { fields, postings: [], eachMail: [] };
  const query = searchQuerySql(terms.map((term) => ({ text: searchableText(term.text), excluded: term.excluded })));
  const hits = eb
    .selectFrom('mail_search as s')
    .select('s.mail_id')
    .where('s.user_id', '=', userId)
    .where(sql<SqlBool>`s.document @@ (${query})`);
  // A scalar subquery, not IN or EXISTS: those the planner may turn into a join on every posting.
  const ownRow = (m: MailAlias) => sql<SqlBool>`(SELECT s.document FROM mail_search s WHERE s.mail_id = ${eb.ref(`${m}.id`)}) @@ (${query})`;
  return { fields, postings: [(m) => eb(`${m}.id`, 'in', hits)], eachMail: [ownRow] };
}

/** `in:` names a mailbox by its role (inbox, sent, drafts, trash, spam) or its name, in any case. */
function mailboxNamed(mailboxes: MailboxCounters[], name: string): MailboxCounters {
  const wanted = name.toLowerCase();
  const mailbox =
    mailboxes.find((candidate) => candidate.role !== 'custom' && candidate.role === wanted) ??
    mailboxes.find((candidate) => candidate.name.toLowerCase() === wanted);
  if (!mailbox) throw new SearchQueryError(`in: you have no mailbox named "${name}"`);
  if (mailbox.locked) throw new MailboxLockedError(mailbox.id);
  return mailbox;
}

/** The id of the mailbox `in:` names, as mailboxNamed picks it (a role before a name), as a subquery: NULL when none is. */
function namedMailboxId(userId: number, name: string): RawBuilder<number | null> {
  const wanted = name.toLowerCase();
  const byRole = sql<SqlBool>`(b.role <> 'custom' AND b.role::text = ${wanted})`;
  return sql`SELECT b.id FROM mailboxes b WHERE b.user_id = ${userId} AND (${byRole} OR lower(b.name) = ${wanted})
    ORDER BY ${byRole} DESC, b.name LIMIT 1`;
}

/** The condition that continues a list after `cursor`. */
export function afterCursor(alias: MailAlias, cursor: ListCursor, order: 'desc' | 'asc'): Expression<SqlBool> {
  const eb = mailExpressions;
  return sql<SqlBool>`(${eb.ref(`${alias}.received_at`)}, ${eb.ref(`${alias}.id`)}) ${sql.raw(order === 'desc' ? '<' : '>')} (${cursor.receivedAt}, ${cursor.id})`;
}

/**
 * Runs a statement built on a filter. Filters combine into a bounded set of query shapes;
 * naming each one (by `namePrefix` and a hash of its text) lets every pooled connection
 * prepare it once, where planning cost four times what running it does.
 * A full-text search, or a filter on a sender, recipient or subject, is planned each time
 * instead (no name): after five runs a named statement may keep a generic plan, one that
 * cannot tell a word in 185 mails from a word in 660,000, and so read a common word's
 * whole posting list or walk a million mails for a rare one (180 ms a search under load,
 * where a plan for the word took 2); for a pattern, one that walks a million mails for an
 * address no mail has, where its trigram index answers at once.
 */
export async function filteredRows<Row extends QueryResultRow>(
  pool: Pool,
  statement: RawBuilder<Row>,
  filter: MailListFilter,
  namePrefix: string,
): Promise<Row[]> {
  return plannedEachTime(filter) ? statementRows(pool, statement) : statementRows(pool, statement, namePrefix);
}

/** Runs a statement built on a filter, named (by `namePrefix` and a hash of its text) when `namePrefix` is given. */
export async function statementRows<Row extends QueryResultRow>(pool: Pool, statement: RawBuilder<Row>, namePrefix?: string): Promise<Row[]> {
  const { sql: text, parameters } = statement.compile(queryBuilder(pool));
  const name = namePrefix === undefined ? undefined : `${namePrefix}-${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
  const { rows } = await pool.query<Row>({ name, text, values: [...parameters] });
  return rows;
}

function plannedEachTime({ from, subject, search }: MailListFilter): boolean {
  return Boolean(from || subject || search?.terms.length || search?.from || search?.to || search?.subject);
}

export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
