import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { loggerFor } from '@letterbox/observability';
import type { SearchQuery } from './search-query';
import { searchableText } from './search-text';

/**
 * How common a search's words and its from:, to: and subject: are estimated to be: the share
 * of all mail (0 to 1) that has them all. 0 when nothing is known.
 */
export interface SearchShares {
  shareOf(pool: Pool, search: SearchQuery): Promise<number>;
}

/** PostgreSQL's statistics change with ANALYZE (autovacuum's, after many new mails): read again this often. */
const REFRESH_MS = 10 * 60_000;

/**
 * What ANALYZE sampled: the search index's most common words and their shares (each element
 * array ends with three numbers, least and greatest share and nulls, not words); and for the
 * sender, subject and recipients (the latter through their trigram indexes' expressions), the
 * most common values with their shares and a histogram of the others.
 */
const STATISTICS = namedStatement(
  'search-statistics',
  `SELECT attname AS column_name, tablename AS table_name, null_frac,
          most_common_elems::text::text[] AS words, most_common_elem_freqs AS word_shares,
          most_common_vals::text::text[] AS common_values, most_common_freqs AS value_shares, histogram_bounds::text::text[] AS bounds
     FROM pg_stats
    WHERE schemaname = current_schema()
      AND ((tablename = 'mail_search' AND attname = 'document')
        OR (tablename = 'mails' AND attname IN ('from_address', 'from_name', 'subject'))
        OR tablename IN ('mails_to_trgm_idx', 'mails_cc_trgm_idx'))`,
);

interface StatisticsRow {
  column_name: string;
  table_name: string;
  null_frac: number;
  words: string[] | null;
  word_shares: number[] | null;
  common_values: string[] | null;
  value_shares: number[] | null;
  bounds: string[] | null;
}

/** A column's values as sampled: the most common with their shares, and bounds that split the rest evenly. */
interface ValueSample {
  common: Array<{ value: string; share: number }>;
  nulls: number;
  bounds: string[];
}

interface Statistics {
  words: Map<string, number>;
  /** What a word the statistics do not list is taken to have: below the least listed. */
  unlistedWord: number;
  columns: Map<string, ValueSample>;
  readAt: number;
}

/**
 * Shares from PostgreSQL's statistics, kept in this process and read again every REFRESH_MS:
 * one small read per process, nothing per search. They are of all users' mail, not the
 * searcher's. A search's parts are taken as going together (its least common part's share):
 * a sender, subject and recipient of one newsletter are, and taking them as independent made
 * such a search look rare; a walk wrongly taken costs at most WALK_LIMIT mails (MailListQuery).
 * Only the plan a search takes depends on these shares, never what it answers.
 */
export class StatisticsSearchShares implements SearchShares {
  private statistics?: Statistics;
  private reading?: Promise<Statistics>;

  async shareOf(pool: Pool, search: SearchQuery): Promise<number> {
    const statistics = await this.current(pool);
    const words = search.terms.filter((term) => !term.excluded).flatMap((term) => lexemes(term.text));
    const parts = words.map((word) => statistics.words.get(word) ?? statistics.unlistedWord);
    const containing = (column: string, text: string) => valuesContaining(statistics.columns.get(column), text);
    if (search.from) parts.push(Math.max(containing('from_address', search.from), containing('from_name', search.from)));
    if (search.to) parts.push(Math.max(containing('to_addresses', search.to), containing('cc_addresses', search.to)));
    if (search.subject) parts.push(containing('subject', search.subject));
    return parts.length === 0 ? 0 : Math.min(...parts);
  }

  /** The statistics held, read again in the background once old; the first search waits for them. */
  private current(pool: Pool): Statistics | Promise<Statistics> {
    const held = this.statistics;
    if (held && Date.now() - held.readAt < REFRESH_MS) return held;
    this.reading ??= read(pool)
      .then((statistics) => (this.statistics = statistics))
      .finally(() => (this.reading = undefined));
    return held ?? this.reading;
  }
}

async function read(pool: Pool): Promise<Statistics> {
  try {
    const { rows } = await pool.query<StatisticsRow>(STATISTICS);
    const index = rows.find((row) => row.table_name === 'mail_search');
    const words = index?.words ?? [];
    const shares = index?.word_shares ?? [];
    return {
      words: new Map(words.map((word, position) => [word, shares[position]])),
      unlistedWord: words.length > 0 ? shares[words.length] / 2 : 0,
      columns: new Map(rows.filter((row) => row !== index).map((row) => [row.column_name, valueSample(row)])),
      readAt: Date.now(),
    };
  } catch (error) {
    // Without statistics every search is taken as rare: it takes the plan it took before these estimates.
    logger.warn({ err: error }, 'could not read the statistics of the searched columns');
    return { words: new Map(), unlistedWord: 0, columns: new Map(), readAt: Date.now() };
  }
}

function valueSample(row: StatisticsRow): ValueSample {
  const shares = row.value_shares ?? [];
  return {
    common: (row.common_values ?? []).map((value, position) => ({ value: value.toLowerCase(), share: shares[position] })),
    nulls: row.null_frac,
    bounds: (row.bounds ?? []).map((bound) => bound.toLowerCase()),
  };
}

/** The share of a column's values that contain `text` in any case, as the sample tells it. */
function valuesContaining(sample: ValueSample | undefined, text: string): number {
  if (!sample) return 0;
  const wanted = text.toLowerCase();
  let listed = 0;
  let share = 0;
  for (const { value, share: valueShare } of sample.common) {
    listed += valueShare;
    if (value.includes(wanted)) share += valueShare;
  }
  const { bounds } = sample;
  if (bounds.length === 0) return share;
  const others = Math.max(0, 1 - listed - sample.nulls);
  return share + (others * bounds.filter((bound) => bound.includes(wanted)).length) / bounds.length;
}

const logger = loggerFor('search');

/** The words of a term as the 'simple' configuration indexes them, near enough for an estimate. */
function lexemes(text: string): string[] {
  return searchableText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}
