import { createHash } from 'node:crypto';
import type { ListCursor } from './list-cursor';
import type { MailboxCounters } from './mailbox-queries';
import { MailboxLockedError, MailboxNotFoundError } from './mail-errors';
import { searchQuerySql } from './search/search-document';
import { SearchQueryError, type SearchQuery } from './search/search-query';
import { searchableText } from './search/search-text';

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

/**
 * A filter as SQL conditions on the user's visible mail, for any alias of `mails`: the
 * values are bound once, so a query can apply the same filter to two aliases (a mail and
 * the other mails of its thread) with the same placeholders.
 */
export interface MailConditions {
  values: unknown[];
  on(alias: string): string[];
}

/**
 * Locked mailbox ids are read first (from the counters the caller has) and excluded by
 * id, never by joining mails to mailboxes: the join made the planner visit every mailbox
 * row for every mail. A filter naming a missing or locked mailbox is refused.
 */
export function mailConditions(userId: number, mailboxes: MailboxCounters[], filter: MailListFilter): MailConditions {
  if (filter.mailboxId !== undefined) {
    const mailbox = mailboxes.find((candidate) => candidate.id === filter.mailboxId);
    if (!mailbox) throw new MailboxNotFoundError(filter.mailboxId);
    if (mailbox.locked) throw new MailboxLockedError(filter.mailboxId);
  }
  const lockedIds = mailboxes.filter((mailbox) => mailbox.locked).map((mailbox) => mailbox.id);
  const values: unknown[] = [userId];
  const parts: Array<(alias: string) => string> = [(m) => `${m}.user_id = $1`, (m) => `${m}.deleted_at IS NULL`];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const add = (condition: (alias: string, placeholder: string) => string, value: unknown) => {
    const placeholder = bind(value);
    parts.push((alias) => condition(alias, placeholder));
  };
  if (lockedIds.length > 0) add((m, p) => `${m}.mailbox_id <> ALL(${p}::int[])`, lockedIds);
  if (filter.mailboxId !== undefined) add((m, p) => `${m}.mailbox_id = ${p}`, filter.mailboxId);
  if (filter.seen !== undefined) add((m, p) => `${m}.seen = ${p}`, filter.seen);
  if (filter.flagged !== undefined) add((m, p) => `${m}.flagged = ${p}`, filter.flagged);
  if (filter.hasAttachments !== undefined) add((m, p) => `${m}.has_attachments = ${p}`, filter.hasAttachments);
  if (filter.from) add((m, p) => `(${m}.from_address ILIKE ${p} OR ${m}.from_name ILIKE ${p})`, containsPattern(filter.from));
  if (filter.subject) add((m, p) => `${m}.subject ILIKE ${p}`, containsPattern(filter.subject));
  if (filter.since) add((m, p) => `${m}.received_at >= ${p}`, filter.since);
  if (filter.until) add((m, p) => `${m}.received_at < ${p}`, filter.until);
  if (filter.search) addSearch(filter.search, mailboxes, { add, bind, push: (part) => parts.push(part) });
  return { values, on: (alias) => parts.map((part) => part(alias)) };
}

interface ConditionBuilder {
  add(condition: (alias: string, placeholder: string) => string, value: unknown): void;
  bind(value: unknown): string;
  push(condition: (alias: string) => string): void;
}

/**
 * A search's operators as conditions like the filter's, and its text as a semi-join on
 * the search index: the planner may start from the index's postings (a rare word) or walk
 * the list in order checking each mail (a common one), whichever is cheaper.
 */
function addSearch(search: SearchQuery, mailboxes: MailboxCounters[], { add, bind, push }: ConditionBuilder): void {
  if (search.mailbox !== undefined) add((m, p) => `${m}.mailbox_id = ${p}`, mailboxNamed(mailboxes, search.mailbox));
  if (search.from) add((m, p) => `(${m}.from_address ILIKE ${p} OR ${m}.from_name ILIKE ${p})`, containsPattern(search.from));
  if (search.to) add((m, p) => `(${m}.to_addresses::text ILIKE ${p} OR ${m}.cc_addresses::text ILIKE ${p})`, containsPattern(search.to));
  if (search.subject) add((m, p) => `${m}.subject ILIKE ${p}`, containsPattern(search.subject));
  if (search.hasAttachments !== undefined) add((m, p) => `${m}.has_attachments = ${p}`, search.hasAttachments);
  if (search.seen !== undefined) add((m, p) => `${m}.seen = ${p}`, search.seen);
  if (search.flagged !== undefined) add((m, p) => `${m}.flagged = ${p}`, search.flagged);
  if (search.answered !== undefined) add((m, p) => `${m}.answered = ${p}`, search.answered);
  if (search.since) add((m, p) => `${m}.received_at >= ${p}`, search.since);
  if (search.until) add((m, p) => `${m}.received_at < ${p}`, search.until);
  if (search.minSize !== undefined) add((m, p) => `${m}.size > ${p}`, search.minSize);
  if (search.maxSize !== undefined) add((m, p) => `${m}.size < ${p}`, search.maxSize);
  if (search.terms.length === 0) return;
  const query = searchQuerySql(search.terms.map((term) => ({ placeholder: bind(searchableText(term.text)), excluded: term.excluded })));
  push((m) => `${m}.id IN (SELECT s.mail_id FROM mail_search s WHERE s.user_id = $1 AND s.document @@ (${query}))`);
}

/** `in:` names a mailbox by its role (inbox, sent, drafts, trash, spam) or its name, in any case. */
function mailboxNamed(mailboxes: MailboxCounters[], name: string): number {
  const wanted = name.toLowerCase();
  const mailbox =
    mailboxes.find((candidate) => candidate.role !== 'custom' && candidate.role === wanted) ??
    mailboxes.find((candidate) => candidate.name.toLowerCase() === wanted);
  if (!mailbox) throw new SearchQueryError(`in: you have no mailbox named "${name}"`);
  if (mailbox.locked) throw new MailboxLockedError(mailbox.id);
  return mailbox.id;
}

/** The condition that continues a list after `cursor`, binding its values. */
export function afterCursor(alias: string, cursor: ListCursor, order: 'desc' | 'asc', values: unknown[]): string {
  values.push(cursor.receivedAt, cursor.id);
  return `(${alias}.received_at, ${alias}.id) ${order === 'desc' ? '<' : '>'} ($${values.length - 1}, $${values.length})`;
}

/**
 * Filters combine into a bounded set of query shapes; naming each one lets every pooled
 * connection prepare it once, where planning cost four times what running it does.
 * A full-text search is planned each time instead (no name): after five runs a named
 * statement may keep a generic plan, one that cannot tell a word in 185 mails from a word
 * in 660,000, and so read a common word's whole posting list or walk a million mails for
 * a rare one (180 ms a search under load, where a plan for the word took 2).
 */
export function statementName(prefix: string, text: string, filter: MailListFilter): string | undefined {
  if (filter.search?.terms.length) return undefined;
  return `${prefix}-${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
}

function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
