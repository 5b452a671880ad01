import { ATTACHMENT_COLUMNS, columnDefinitions, columnsOf, insertIntoMails, MESSAGE_COLUMNS, MESSAGE_FIELDS, type MailPlacementSql } from './mail-row-columns';
import { searchDocumentSql } from '../search/search-document';

/**
 * The mails of one statement see none of each other in `mails` (one snapshot), so a reply
 * stored with the mail it answers (an ingest batch holding both) takes the thread of the first
 * mail of its chain in the statement, its root, which mail_thread_of places. A reply's parent
 * is the latest earlier mail of the statement it names by Message-ID, and only when that mail
 * holds the id first: no stored mail of the user has it (that one is found by mail_thread_of),
 * nor an earlier mail of the statement. Linear in the references (a hash join over them); a
 * chain is followed one level of replies at a time.
 */
const STATEMENT_THREAD_ROOTS = `statement_thread_parents AS (
  SELECT DISTINCT ON (p.id) p.id, q.id AS parent_id
    FROM placed_mails p
   CROSS JOIN LATERAL unnest(p.thread_references) AS named(message_id)
    JOIN placed_mails q ON q.user_id = p.user_id AND q.message_id = named.message_id AND (q.received_at, q.id) < (p.received_at, p.id)
   WHERE q.message_id <> p.message_id
     AND NOT EXISTS (
       SELECT 1 FROM placed_mails e
        WHERE e.user_id = q.user_id AND e.message_id = q.message_id AND (e.received_at, e.id) < (q.received_at, q.id))
     AND NOT EXISTS (SELECT 1 FROM mails m WHERE m.user_id = q.user_id AND m.message_id = q.message_id)
   ORDER BY p.id, q.received_at DESC, q.id DESC
), statement_thread_roots AS (
  WITH RECURSIVE chains (id, root_id) AS (
    SELECT p.id, p.id FROM placed_mails p WHERE p.id NOT IN (SELECT id FROM statement_thread_parents)
    UNION ALL
    SELECT t.id, c.root_id FROM chains c JOIN statement_thread_parents t ON t.parent_id = c.id
  )
  SELECT id, root_id FROM chains
)`;

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
 * ...), the message's fields and `carry`; a mail answering one stored by the same statement
 * joins its thread (STATEMENT_THREAD_ROOTS); `new_mails` returns each mail's id, thread_id,
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
    thread_id: 'COALESCE(mail_thread_of(r.user_id, r.thread_references, r.subject, r.received_at, r.message_id, r.from_address), r.id)',
  });
  const attachmentColumns = Object.keys(ATTACHMENT_COLUMNS);
  const ctes = `placed_mails AS (
  SELECT ${placed.join(', ')}
    FROM ${from}
), ${STATEMENT_THREAD_ROOTS}, new_mails AS (
  ${mails}
    FROM placed_mails p JOIN statement_thread_roots s ON s.id = p.id JOIN placed_mails r ON r.id = s.root_id
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
