import { sql, type RawBuilder } from 'kysely';
import type { PreparedMail } from '../store/store-mail';
import { storableText } from '../store/storable-text';
import { searchablePeople, searchableText } from './search-text';

/** The texts a mail's search row is made of, as its insert binds them. */
export interface SearchDocumentTexts {
  /** The body as text: kept for snippets. */
  body: string;
  subjectTokens: string;
  peopleTokens: string;
  bodyTokens: string;
}

export function searchDocumentTexts(prepared: PreparedMail): SearchDocumentTexts {
  const { summary } = prepared;
  const body = storableText(prepared.bodyText);
  return {
    body,
    subjectTokens: storableText(searchableText(summary.subject)),
    peopleTokens: storableText(searchablePeople([...(summary.from ? [summary.from] : []), ...summary.to, ...summary.cc])),
    bodyTokens: searchableText(body),
  };
}

/** The tsvector of a search row from SQL expressions of its texts: subject weighs most, then people, then body. */
export function searchDocumentSql(subjectTokens: string, peopleTokens: string, bodyTokens: string): string {
  return `setweight(to_tsvector('simple', ${subjectTokens}), 'A') || setweight(to_tsvector('simple', ${peopleTokens}), 'B')
          || to_tsvector('simple', ${bodyTokens})`;
}

/** The tsquery of search terms, each bound as its searchable text: a phrase of its words (and CJK pairs). */
export function searchQuerySql(terms: Array<{ text: string; excluded: boolean }>): RawBuilder<unknown> {
  return sql.join(
    terms.map(({ text, excluded }) => sql`${sql.raw(excluded ? '!!' : '')}phraseto_tsquery('simple', ${text})`),
    sql` && `,
  );
}
