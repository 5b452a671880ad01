import { MAIL_ROW_INPUT_COLUMNS, mailRowsInsertCtes, readReceiptsInsertSql } from '@letterbox/mail';

/**
 * Stores composed Sent copies in one statement: each copy's mail row (under the mail id its
 * send was given), search row, attachments and receipt keys, and the send's copy marked
 * stored. Each send's row is locked first and must still have its copy pending: a
 * concurrent store of the same copy waits and then finds it stored (its row is left out),
 * and a cancel either comes first, so the copy goes to Drafts, or waits and finds the copy
 * in Sent, which it moves to Drafts itself. A sender without the mailbox gets a NULL one,
 * refused by its NOT NULL: a copy is never silently dropped.
 */
export const INSERT_SENT_COPIES = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(send_id int8, received_at timestamptz, important boolean, receipts jsonb, ${MAIL_ROW_INPUT_COLUMNS})
), claimed AS (
  SELECT s.id AS send_id, s.user_id, s.sent_mail_id AS mail_id, s.status
    FROM outbound_sends s
   WHERE s.id IN (SELECT send_id FROM input) AND s.sent_copy_pending
     FOR UPDATE
), copies AS (
  SELECT i.*, c.user_id, c.mail_id, u.office_id, b.id AS mailbox_id, true AS seen, false AS flagged
    FROM input i
    JOIN claimed c ON c.send_id = i.send_id
    JOIN users u ON u.id = c.user_id
    LEFT JOIN mailboxes b ON b.user_id = c.user_id AND b.role::text = CASE WHEN c.status = 'cancelled' THEN 'drafts' ELSE 'sent' END
), ${mailRowsInsertCtes('copies')}, new_receipts AS (
  ${readReceiptsInsertSql('copies')}
), marked AS (
  UPDATE outbound_sends s SET sent_copy_pending = false FROM copies c WHERE s.id = c.send_id
)
SELECT send_id, user_id, mail_id, mailbox_id FROM copies`;
