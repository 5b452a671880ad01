import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import type { MailListFilter } from '../list/mail-filter-sql';
import type { MailSummary, SearchHighlight } from '../mail-views';
import type { SearchTerm } from './search-query';

const CONTEXT_BEFORE = 60;
const LENGTH = 200;
const BODIES = namedStatement('search-highlight-bodies', 'SELECT mail_id, body FROM mail_search WHERE mail_id = ANY($1::int8[])');

/**
 * Snippets of the hits' bodies around the first searched word, with every searched word
 * in them marked. Offsets, not markup: a client cannot be made to render HTML by them.
 * Bodies are bounded (SEARCH_BODY_CHARS), and the pattern is literal text alternated.
 */
export async function searchHighlights(sql: Pool, mailIds: number[], terms: SearchTerm[]): Promise<Map<number, SearchHighlight>> {
  const wanted = terms.filter((term) => !term.excluded);
  const highlights = new Map<number, SearchHighlight>();
  if (mailIds.length === 0 || wanted.length === 0) return highlights;
  const { rows } = await sql.query<{ mail_id: string; body: string }>({ ...BODIES, values: [mailIds] });
  const pattern = new RegExp(wanted.map((term) => term.text.trim().split(/\s+/).map(escapeRegExp).join('\\s+')).join('|'), 'giu');
  for (const row of rows) {
    const highlight = highlightIn(row.body, pattern);
    if (highlight) highlights.set(Number(row.mail_id), highlight);
  }
  return highlights;
}

/** Gives the hits of a full-text search their highlights. */
export async function addHighlights(sql: Pool, items: MailSummary[], filter: MailListFilter): Promise<void> {
  if (!filter.search?.terms.length) return;
  const highlights = await searchHighlights(
    sql,
    items.map((item) => item.id),
    filter.search.terms,
  );
  for (const item of items) {
    const highlight = highlights.get(item.id);
    if (highlight) item.highlight = highlight;
  }
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
