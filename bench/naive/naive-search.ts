import type { Pool } from 'pg';
import { mapSummaryRow, SUMMARY_COLUMNS, type SummaryRow } from '@letterbox/mail';

/** What the naive search is asked: body text and the operators' plain equivalents, each optional. */
export interface NaiveSearchRequest {
  /** Words as one pattern over the body text (a phrase matches as written). */
  text?: string;
  /** Part of the sender's address or name. */
  from?: string;
  /** Part of a To or Cc recipient, as the stored JSON's text. */
  to?: string;
  subject?: string;
  hasAttachments?: boolean;
  unread?: boolean;
  /** A mailbox by its name. */
  mailbox?: string;
  after?: Date;
  before?: Date;
}

/**
 * Search as first written: each part a plain condition (ILIKE for text, over the stored
 * body text, addresses and subject), newest first, with no index that can help the text.
 */
export async function naiveSearch(sql: Pool, userId: number, request: NaiveSearchRequest, limit: number) {
  const values: unknown[] = [userId];
  const bind = (value: unknown) => `$${values.push(value)}`;
  const conditions = ['m.user_id = $1', 'm.deleted_at IS NULL'];
  const { text, from, to, subject, hasAttachments, unread, mailbox, after, before } = request;
  if (text) conditions.push(`s.body ILIKE ${bind(containsPattern(text))}`);
  if (from) {
    const pattern = bind(containsPattern(from));
    conditions.push(`(m.from_address ILIKE ${pattern} OR m.from_name ILIKE ${pattern})`);
  }
  if (to) {
    const pattern = bind(containsPattern(to));
    conditions.push(`(m.to_addresses::text ILIKE ${pattern} OR m.cc_addresses::text ILIKE ${pattern})`);
  }
  if (subject) conditions.push(`m.subject ILIKE ${bind(containsPattern(subject))}`);
  if (hasAttachments) conditions.push('m.has_attachments');
  if (unread) conditions.push('NOT m.seen');
  if (mailbox) conditions.push(`m.mailbox_id = (SELECT id FROM mailboxes WHERE user_id = $1 AND name = ${bind(mailbox)})`);
  if (after) conditions.push(`m.received_at >= ${bind(after)}`);
  if (before) conditions.push(`m.received_at < ${bind(before)}`);
  const { rows } = await sql.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM mails m ${text ? 'JOIN mail_search s ON s.mail_id = m.id' : ''}
      WHERE ${conditions.join(' AND ')}
      ORDER BY m.received_at DESC, m.id DESC LIMIT ${bind(limit)}`,
    values,
  );
  return { items: rows.map(mapSummaryRow) };
}

function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
