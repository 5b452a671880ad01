import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { mailRowsInput, mailRowsInsertCtes, type PreparedMail, type SpamVerdict } from '@letterbox/mail';
import type { MailAuthentication } from '@letterbox/mail-auth';

export interface InboundMailRow {
  inboundId: string;
  userId: number;
  /** What stores it once for this recipient (dedupKeyOf). */
  dedupKey: string;
  messageId: string;
  receivedAt: Date;
  prepared: PreparedMail;
  /** Its checks, when the intake made them. */
  authentication?: MailAuthentication;
  /** The recipient's mailbox it goes to: Spam for a forged colleague or a DMARC quarantine. */
  mailbox: 'inbox' | 'spam';
  /** rspamd's verdict, when it scored the message. */
  spam?: SpamVerdict;
  /** The recipient's rules: the folder they file it into (the mailbox of `mailbox`'s role when it is gone), and its flags. */
  filed?: { mailboxId?: number; seen: boolean; flagged: boolean };
}

/** A notification's title must name someone: mail without a From address is stored too. */
const UNKNOWN_SENDER = '(unknown sender)';

export interface StoredInboundMail {
  inboundId: string;
  userId: number;
  mailId: number;
  mailboxId: number;
  /** The sender's name, else address, else UNKNOWN_SENDER: what a notification shows. */
  from: string;
  subject: string;
  /** False when an earlier attempt of the same acceptance stored it (a retried batch). */
  storedNow: boolean;
}

/**
 * Inserts a batch of incoming mail into its recipients' inboxes (or Spam mailboxes) in one statement (so one
 * transaction and one round trip; the mailbox counters' triggers run once per statement).
 * `inbound_messages` claims each (recipient, dedup key) first: a pair stored before is
 * skipped, whichever worker stored it and however long ago. Rows must be unique per pair.
 * Returns every mail the batch's acceptances have stored, now or in an earlier attempt,
 * so a retry after a crash can still announce them. Every string is made storable (no
 * NUL, no lone surrogate) on the way in.
 */
export async function insertInboundBatch(sql: Pool, rows: InboundMailRow[]): Promise<StoredInboundMail[]> {
  if (rows.length === 0) return [];
  const input = rows.map(({ inboundId, userId, dedupKey, messageId, receivedAt, prepared, authentication, mailbox, spam, filed }) =>
    INPUT.row(
      {
        inbound_id: inboundId,
        user_id: userId,
        dedup_key: dedupKey,
        received_at: receivedAt.toISOString(),
        authentication: authentication ?? null,
        mailbox_role: mailbox,
        spam: spam ?? null,
        // 0 for none: no mailbox has it.
        folder_id: filed?.mailboxId ?? 0,
        seen: filed?.seen ?? false,
        flagged: filed?.flagged ?? false,
      },
      // Under the acceptance's Message-ID: the one its dedup key was made from.
      { ...prepared, messageId },
    ),
  );
  const { rows: stored } = await sql.query<{
    inbound_id: string;
    user_id: number;
    mail_id: string;
    mailbox_id: number;
    sender: string;
    subject: string;
    stored_now: boolean;
  }>({ ...INSERT_INBOUND_BATCH, values: [INPUT.parameter(input)] });
  return stored.map((row) => ({
    inboundId: row.inbound_id,
    userId: row.user_id,
    mailId: Number(row.mail_id),
    mailboxId: row.mailbox_id,
    from: row.sender || UNKNOWN_SENDER,
    subject: row.subject,
    storedNow: row.stored_now,
  }));
}

const INPUT = mailRowsInput({
  inbound_id: 'uuid',
  user_id: 'int',
  dedup_key: 'text',
  received_at: 'timestamptz',
  authentication: 'jsonb',
  mailbox_role: 'text',
  spam: 'jsonb',
  folder_id: 'int',
  seen: 'boolean',
  flagged: 'boolean',
});

// Mail ids are drawn while claiming, so the claim records the mail it stands for; a mail
// claimed now is stored with the flags its recipient's rules gave it (none: unread) in the folder
// they filed it into, else in the recipient's mailbox of the role asked (the inbox when the
// recipient has no mailbox of that role, or the folder is gone).
const INSERT_INBOUND_BATCH = namedStatement(
  'insert-inbound-batch',
  `WITH input AS (
  SELECT * FROM ${INPUT.recordset('$1', 'i')}
), targets AS (
  SELECT DISTINCT ON (i.user_id, i.dedup_key) i.user_id, i.dedup_key, m.id AS mailbox_id
    FROM input i JOIN mailboxes m ON m.user_id = i.user_id AND (m.id = i.folder_id OR m.role IN ('inbox', i.mailbox_role::mailbox_role))
   ORDER BY i.user_id, i.dedup_key, m.id = i.folder_id IS NOT TRUE, m.role = 'inbox'
), claimed AS (
  INSERT INTO inbound_messages (user_id, dedup_key, inbound_id, mail_id)
  SELECT i.user_id, i.dedup_key, i.inbound_id, nextval(pg_get_serial_sequence('mails', 'id'))
    FROM input i JOIN targets USING (user_id, dedup_key)
  ON CONFLICT (user_id, dedup_key) DO NOTHING
  RETURNING user_id, dedup_key, inbound_id, mail_id
), ${mailRowsInsertCtes({
    from: 'claimed c JOIN input i USING (user_id, dedup_key) JOIN targets b USING (user_id, dedup_key)',
    input: 'i',
    placement: {
      id: 'c.mail_id',
      user_id: 'i.user_id',
      mailbox_id: 'b.mailbox_id',
      received_at: 'i.received_at',
      seen: 'i.seen',
      flagged: 'i.flagged',
      important: 'false',
      authentication: 'i.authentication',
      spam: 'i.spam',
    },
  })}
SELECT c.inbound_id, c.user_id, n.id AS mail_id, n.mailbox_id, COALESCE(NULLIF(n.from_name, ''), n.from_address) AS sender, n.subject, true AS stored_now
  FROM claimed c JOIN new_mails n ON n.id = c.mail_id
UNION ALL
SELECT im.inbound_id, im.user_id, im.mail_id, m.mailbox_id, COALESCE(NULLIF(m.from_name, ''), m.from_address), m.subject, false
  FROM inbound_messages im JOIN mails m ON m.id = im.mail_id
 WHERE im.inbound_id IN (SELECT inbound_id FROM input)`,
);
