import { ATTACHMENT_COLUMNS, columnDefinitions, columnsOf, insertIntoMails, MESSAGE_COLUMNS, MESSAGE_FIELDS, type MailPlacementSql } from './mail-row-columns';
import { searchDocumentSql } from '../search/search-document';

/** How a writer's statement stores mails, as SQL over the writer's own relation. */
export interface MailRowsInsert {
  /** One row per mail: a FROM clause in which `input` names rows of a MailRowsInput's recordset (or of a CTE selecting them). */
  from: string;
  input: string;
  placement: MailPlacementSql;
  /** Read receipts to record for each mail (a Sent copy's): its office's id, and a jsonb array of `{ email, cert_key }`. */
  receipts?: { officeId: string; keys: string };
  /** More columns of `from`, for the writer's own later CTEs to read from `placed_mails`. */
  carry?: string[];
}

/**
 * Common table expressions that store mails, for the statement of any writer of them (an
 * incoming batch, Sent copies, a draft, storeMail): one statement for any number of mails
 * and whatever else the writer records with them, so one transaction and one round trip,
 * and the mailbox counters' triggers run once. The set of columns is defined once, in
 * TypeScript (mail-row-columns.ts): the input rows carry every field of the message
 * (MailRowsInput), and `placement` must name every other written column, so a column added
 * to `mails` fails to compile in each writer that does not give it.
 *
 * `placed_mails` holds each mail's placement (under the columns' names: `id`, `user_id`,
 * ...), the message's fields and `carry`; `new_mails` returns each mail's id, thread_id,
 * mailbox_id, from_name, from_address and subject. The search rows (`new_search`),
 * attachments (`new_attachments`) and receipts (`new_receipts`) refer to mails a sibling
 * CTE inserts: foreign keys are checked when the whole statement ends.
 */
export function mailRowsInsertCtes({ from, input, placement, receipts, carry = [] }: MailRowsInsert): string {
  const placed = [
    ...Object.entries(placement).map(([column, value]) => `${value} AS ${column}`),
    ...Object.keys(MESSAGE_FIELDS).map((field) => `${input}.${field}`),
    ...(receipts ? [`${receipts.officeId} AS receipt_office_id`, `${receipts.keys} AS receipt_keys`] : []),
    ...carry,
  ];
  const mails = insertIntoMails({
    ...columnsOf(placement, 'p'),
    ...columnsOf(MESSAGE_COLUMNS, 'p'),
    thread_id: 'COALESCE(mail_thread_of(p.user_id, p.thread_references, p.subject, p.received_at), p.id)',
  });
  const attachmentColumns = Object.keys(ATTACHMENT_COLUMNS);
  const ctes = `placed_mails AS (
  SELECT ${placed.join(', ')}
    FROM ${from}
), new_mails AS (
  ${mails}
    FROM placed_mails p
  RETURNING id, thread_id, mailbox_id, from_name, from_address, subject
), new_search AS (
  INSERT INTO mail_search (mail_id, user_id, body, document)
  SELECT p.id, p.user_id, p.body_text, ${searchDocumentSql('p.subject_tokens', 'p.people_tokens', 'p.body_tokens')}
    FROM placed_mails p
), new_attachments AS (
  INSERT INTO attachments (mail_id, ${attachmentColumns.join(', ')})
  SELECT p.id, ${attachmentColumns.map((column) => `a.${column}`).join(', ')}
    FROM placed_mails p, jsonb_to_recordset(p.attachments) AS a(${columnDefinitions(ATTACHMENT_COLUMNS)})
)`;
  if (!receipts) return ctes;
  return `${ctes}, new_receipts AS (
  INSERT INTO read_receipts (office_id, mail_id, recipient_email, cert_key)
  SELECT p.receipt_office_id, p.id, r.email, r.cert_key
    FROM placed_mails p, jsonb_to_recordset(p.receipt_keys) AS r(email text, cert_key text)
)`;
}
