import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import type { MailListFilter } from '../list/mail-filter-sql';
import type { MailSummary, SearchHighlight } from '../mail-views';
import type { SearchTerm } from './search-query';

const CONTEXT_BEFORE = 60;
const LENGTH = 200;
const BODIES = namedStatement('search-highlight-bodies', 'SELECT mail_id, body FROM mail_search WHERE mail_id = ANY($1::int8[])');

/** Gives the hits of a full-text search their highlights, reading their bodies. */
export async function addHighlights(sql: Pool, items: MailSummary[], filter: MailListFilter): Promise<void> {
  if (items.length === 0 || wantedTerms(filter).length === 0) return;
  const { rows } = await sql.query<{ mail_id: string; body: string }>({ ...BODIES, values: [items.map((item) => item.id)] });
  markHighlights(items, new Map(rows.map((row) => [Number(row.mail_id), row.body])), filter);
}

/**
 * Gives the hits of a full-text search their highlights from their bodies (by mail id): a
 * snippet around the first searched word, with every searched word in it marked. Offsets,
 * not markup: a client cannot be made to render HTML by them. Bodies are bounded
 * (SEARCH_BODY_CHARS), and the pattern is literal text alternated.
 */
export function markHighlights(items: MailSummary[], bodies: Map<number, string>, filter: MailListFilter): void {
  const wanted = wantedTerms(filter);
  if (wanted.length === 0) return;
  const pattern = new RegExp(wanted.map((term) => term.text.trim().split(/\s+/).map(escapeRegExp).join('\\s+')).join('|'), 'giu');
  for (const item of items) {
    const body = bodies.get(item.id);
    const highlight = body === undefined ? undefined : highlightIn(body, pattern);
    if (highlight) item.highlight = highlight;
  }
}

function wantedTerms(filter: MailListFilter): SearchTerm[] {
  return filter.search?.terms.filter((term) => !term.excluded) ?? [];
}

function highlightIn(body: string, pattern: RegExp): SearchHighlight | undefined {
  pattern.lastIndex = 0;
  const first = pattern.exec(body);
  if (!first) return undefined;
  const start = Math.max(0, first.index - CONTEXT_BEFORE);
  const lead = start > 0 ? '…' : '';
  const text =
    lead +
    body
      .slice(start, start + LENGTH * 2)
      .replace(/\s+/g, ' ')
      .slice(0, LENGTH);
  const marks: Array<[number, number]> = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    marks.push([match.index, match.index + match[0].length]);
  }
  return { text, marks };
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
