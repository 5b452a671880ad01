import { ATTACHMENT_ROW_INPUT_COLUMNS } from './mail-row-input';
import { searchDocumentSql } from './search/search-document';

/**
 * Common table expressions that insert mails with their search rows (`new_search`) and
 * attachments (`new_attachments`) from `source`, a relation (a CTE's name) of one row per
 * mail with these columns: `mail_id`, drawn from mails' sequence beforehand so that other
 * rows of the statement can refer to it; `user_id`, `mailbox_id`, `received_at`, `seen`,
 * `flagged`, `important`; and mailRowInput's fields. `new_mails` returns each mail's id,
 * thread_id, mailbox_id, from_name, from_address and subject.
 *
 * One statement for any number of mails: one transaction, one round trip, and the mailbox
 * counters' triggers run once. The search rows and attachments refer to mails a sibling
 * CTE inserts: foreign keys are checked when the whole statement ends.
 */
export function mailRowsInsertCtes(source: string): string {
  return `new_mails AS (
  INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, from_name, to_addresses, cc_addresses, subject, snippet,
                     received_at, size, seen, flagged, important, has_attachments, storage_key, layout)
  SELECT r.mail_id, COALESCE(mail_thread_of(r.user_id, r.thread_references, r.subject, r.received_at), r.mail_id), r.user_id, r.mailbox_id,
         r.message_id, r.from_address, r.from_name, r.to_addresses, r.cc_addresses, r.subject, r.snippet,
         r.received_at, r.size, r.seen, r.flagged, r.important, r.has_attachments, r.storage_key, r.layout
    FROM ${source} r
  RETURNING id, thread_id, mailbox_id, from_name, from_address, subject
), new_search AS (
  INSERT INTO mail_search (mail_id, user_id, body, document)
  SELECT r.mail_id, r.user_id, r.body_text, ${searchDocumentSql('r.subject_tokens', 'r.people_tokens', 'r.body_tokens')}
    FROM ${source} r
), new_attachments AS (
  INSERT INTO attachments (mail_id, part_id, filename, content_type, disposition, content_id, size, encoding, body_start, body_end)
  SELECT r.mail_id, a.part_id, a.filename, a.content_type, a.disposition, a.content_id, a.size, a.encoding, a.body_start, a.body_end
    FROM ${source} r, jsonb_to_recordset(r.attachments) AS a(${ATTACHMENT_ROW_INPUT_COLUMNS})
)`;
}
