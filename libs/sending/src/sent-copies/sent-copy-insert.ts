import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { mailRowsInput, mailRowsInsertCtes, newCertKey, type PreparedMail } from '@letterbox/mail';
import { undoneSendDraftSql } from '../drafts/undone-send-draft';
import type { RecordedRequest } from '../submit/record-send';
import { recipientsOf } from '../submit/send-request';
import type { StoredSentCopy } from './sent-copies';

/** A composed Sent copy, ready to store. */
export interface ComposedCopy {
  sendId: number;
  request: RecordedRequest;
  prepared: PreparedMail;
}

const INPUT = mailRowsInput({ send_id: 'int8', received_at: 'timestamptz', important: 'boolean', receipts: 'jsonb' });

/**
 * Each copy's mail row (under the mail id its send was given), search row, attachments and
 * receipt keys, and the send's copy marked stored. Each send's row is locked first and must
 * still have its copy pending: a concurrent store of the same copy waits and then finds it
 * stored (its row is left out), and a cancel either comes first, so the copy goes to
 * Drafts, or waits and finds the copy in Sent, which it moves to Drafts itself. A sender
 * without the mailbox gets a NULL one, refused by its NOT NULL: a copy is never silently dropped.
 */
const INSERT_SENT_COPIES = namedStatement(
  'insert-sent-copies',
  `WITH input AS (
  SELECT * FROM ${INPUT.recordset('$1', 'i')}
), claimed AS (
  SELECT s.id AS send_id, s.user_id, s.sent_mail_id AS mail_id, s.status
    FROM outbound_sends s
   WHERE s.id IN (SELECT send_id FROM input) AND s.sent_copy_pending
     FOR UPDATE
), ${mailRowsInsertCtes({
    from: `input i
    JOIN claimed c ON c.send_id = i.send_id
    JOIN users u ON u.id = c.user_id
    LEFT JOIN mailboxes b ON b.user_id = c.user_id AND b.role::text = CASE WHEN c.status = 'cancelled' THEN 'drafts' ELSE 'sent' END`,
    input: 'i',
    placement: {
      id: 'c.mail_id',
      user_id: 'c.user_id',
      mailbox_id: 'b.id',
      received_at: 'i.received_at',
      seen: 'true',
      flagged: 'false',
      important: 'i.important',
      // The user's own sent mail: nothing to check.
      authentication: 'NULL::jsonb',
      spam: 'NULL::jsonb',
    },
    receipts: { officeId: 'u.office_id', keys: 'i.receipts' },
    carry: ['i.send_id'],
  })}, marked AS (
  UPDATE outbound_sends s SET sent_copy_pending = false FROM placed_mails p WHERE s.id = p.send_id
), drafted AS (
  INSERT INTO drafts (mail_id, user_id, content)
  SELECT p.id, p.user_id, ${undoneSendDraftSql('s.request')}
    FROM placed_mails p JOIN claimed c ON c.send_id = p.send_id JOIN outbound_sends s ON s.id = p.send_id
   WHERE c.status = 'cancelled'
)
SELECT send_id, user_id, id AS mail_id, mailbox_id FROM placed_mails`,
);

/** Stores composed Sent copies in one statement; a copy another store got to first is left out (`undefined`). */
export async function insertSentCopies(sql: Pool, copies: ComposedCopy[]): Promise<Array<StoredSentCopy | undefined>> {
  const rows = copies.map(({ sendId, request, prepared }) =>
    INPUT.row(
      {
        send_id: sendId,
        received_at: request.date,
        important: request.important,
        receipts: request.requestReadReceipt ? recipientsOf(request).map((email) => ({ email, cert_key: newCertKey() })) : [],
      },
      prepared,
    ),
  );
  const { rows: stored } = await sql.query<{ send_id: string; user_id: number; mail_id: string; mailbox_id: number }>({
    ...INSERT_SENT_COPIES,
    values: [INPUT.parameter(rows)],
  });
  const bySend = new Map(stored.map((row) => [Number(row.send_id), { userId: row.user_id, mailId: Number(row.mail_id), mailboxId: row.mailbox_id }]));
  return copies.map((copy) => bySend.get(copy.sendId));
}
