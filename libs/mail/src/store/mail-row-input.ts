import type { HeaderSummary } from '@letterbox/mime';
import { columnDefinitions, MESSAGE_FIELDS, type AttachmentFields, type InputColumns, type InputValues, type MessageFields } from './mail-row-columns';
import { searchDocumentTexts } from '../search/search-document';
import { storableJson } from './storable-text';
import type { PreparedMail } from './store-mail';

/** A writer's own fields of an input row: any but the message's. */
export type WriterColumns = InputColumns & { readonly [Field in keyof MessageFields]?: never };
export type MailInputRow<Columns extends WriterColumns> = InputValues<Columns> & MessageFields;

/**
 * A writer's input rows of mails, its own fields beside each message's: sent as one jsonb
 * array, a statement's parameter, and read as a relation by `recordset`. Many mails, one
 * statement; what mailRowsInsertCtes stores.
 */
export interface MailRowsInput<Columns extends WriterColumns> {
  /** The rows as a FROM item: `jsonb_to_recordset(<parameter>::jsonb) AS <alias>(...)`, the writer's columns then the message's. */
  recordset(parameter: string, alias: string): string;
  /** A mail's row: the writer's values, and the fields of its message. */
  row(values: InputValues<Columns>, prepared: PreparedMail): MailInputRow<Columns>;
  /** The rows as the parameter's value, every string made storable (no NUL, no lone surrogate). */
  parameter(rows: Array<MailInputRow<Columns>>): string;
}

export function mailRowsInput<const Columns extends WriterColumns>(columns: Columns): MailRowsInput<Columns> {
  const definitions = columnDefinitions({ ...columns, ...MESSAGE_FIELDS });
  return {
    recordset: (parameter, alias) => `jsonb_to_recordset(${parameter}::jsonb) AS ${alias}(${definitions})`,
    row: (values, prepared) => ({ ...values, ...messageFields(prepared) }),
    parameter: (rows) => JSON.stringify(rows, storableJson),
  };
}

function messageFields(prepared: PreparedMail): MessageFields {
  const search = searchDocumentTexts(prepared);
  return {
    message_id: prepared.messageId,
    from_address: prepared.summary.from?.address ?? '',
    from_name: prepared.summary.from?.name ?? '',
    to_addresses: prepared.summary.to.map(({ name, address }) => ({ name, address })),
    cc_addresses: prepared.summary.cc.map(({ name, address }) => ({ name, address })),
    subject: prepared.summary.subject,
    sent_at: sentAt(prepared.summary.date),
    snippet: prepared.snippet,
    size: prepared.blob.size,
    has_attachments: prepared.attachments.some((part) => part.disposition === 'attachment'),
    storage_key: prepared.blob.key,
    layout: prepared.layout,
    thread_references: threadReferences(prepared.summary),
    body_text: search.body,
    subject_tokens: search.subjectTokens,
    people_tokens: search.peopleTokens,
    body_tokens: search.bodyTokens,
    attachments: attachmentRows(prepared),
  };
}

/**
 * The Date header as PostgreSQL reads it, or null: none, none that parsed (summarizeHeaders reads it leniently), or
 * a year an ISO date cannot write plainly (before 1 or after 9999), which no real message carries.
 */
function sentAt(date: Date | undefined): string | null {
  if (!date) return null;
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date.toISOString() : null;
}

/** The Message-IDs that place a mail in its conversation (mail_thread_of in SQL). */
function threadReferences(summary: HeaderSummary): string[] {
  return [...new Set(summary.inReplyTo ? [...summary.references, summary.inReplyTo] : summary.references)];
}

function attachmentRows(prepared: PreparedMail): AttachmentFields[] {
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
