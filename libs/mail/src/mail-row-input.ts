import type { HeaderSummary } from '@letterbox/mime';
import { searchDocumentTexts } from './search/search-document';
import type { PreparedMail } from './store-mail';

/**
 * A prepared mail as one object of a jsonb array that a set-based INSERT reads with
 * `jsonb_to_recordset(...) AS x(${MAIL_ROW_INPUT_COLUMNS}, ...)`: many mails, one statement.
 */
export function mailRowInput(prepared: PreparedMail) {
  const search = searchDocumentTexts(prepared);
  return {
    message_id: prepared.messageId,
    from_address: prepared.summary.from?.address ?? '',
    from_name: prepared.summary.from?.name ?? '',
    to_addresses: prepared.summary.to.map(({ name, address }) => ({ name, address })),
    cc_addresses: prepared.summary.cc.map(({ name, address }) => ({ name, address })),
    subject: prepared.summary.subject,
    thread_references: threadReferences(prepared.summary),
    snippet: prepared.snippet,
    size: prepared.blob.size,
    has_attachments: prepared.attachments.some((part) => part.disposition === 'attachment'),
    storage_key: prepared.blob.key,
    layout: prepared.layout,
    attachments: attachmentRows(prepared),
    body_text: search.body,
    subject_tokens: search.subjectTokens,
    people_tokens: search.peopleTokens,
    body_tokens: search.bodyTokens,
  };
}

/** The column definitions of mailRowInput's fields, for jsonb_to_recordset. */
export const MAIL_ROW_INPUT_COLUMNS = `message_id text, from_address text, from_name text, to_addresses jsonb, cc_addresses jsonb, subject text,
  thread_references text[], snippet text, size int, has_attachments boolean, storage_key text, layout jsonb, attachments jsonb,
  body_text text, subject_tokens text, people_tokens text, body_tokens text`;

/** The column definitions of an attachments array of mailRowInput, for jsonb_to_recordset. */
export const ATTACHMENT_ROW_INPUT_COLUMNS = `part_id text, filename text, content_type text, disposition text, content_id text,
  size int, encoding text, body_start int, body_end int`;

/** The Message-IDs that place a mail in its conversation (mail_thread_of in SQL). */
export function threadReferences(summary: HeaderSummary): string[] {
  return [...new Set(summary.inReplyTo ? [...summary.references, summary.inReplyTo] : summary.references)];
}

/** A prepared mail's attachments as `attachments` rows (less mail_id), for jsonb_to_recordset. */
export function attachmentRows(prepared: PreparedMail) {
  return prepared.attachments.map((part) => ({
    part_id: part.partId,
    filename: part.filename,
    content_type: part.contentType,
    disposition: part.disposition,
    content_id: part.contentId ?? null,
    size: part.size,
    encoding: part.encoding,
    body_start: part.start,
    body_end: part.end,
  }));
}
