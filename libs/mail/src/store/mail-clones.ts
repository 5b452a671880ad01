import type { Pool } from 'pg';
import { ATTACHMENT_COLUMNS, columnsOf, insertIntoMails, MESSAGE_COLUMNS } from './mail-row-columns';

/** Copies of stored mails for load tests: which templates, whose, and how they spread. */
export interface MailClones {
  templateIds: number[];
  userId: number;
  /** Clones are numbered `from`..`to` (inclusive); a number places, dates and flags its clone. */
  from: number;
  to: number;
  /** Part of every clone's Message-ID, so batches never collide. */
  batch: string;
  /** Consecutive clones form conversations of this many mails, with one subject. */
  threadSize: number;
  /** One clone in a hundred lands in `locked`, one in ten in `custom`, the rest in `inbox`. */
  mailboxes: { inbox: number; custom: number; locked: number };
}

/**
 * Inserts clones of template mails in SQL, each with its own Message-ID, date and flags and
 * the template's attachment rows; clones share the templates' EML, which content addressing
 * allows. Clone g is template (g / threadSize) mod their number, received g × 31 s ago,
 * seen unless g is a multiple of 3, flagged every 17th, important every 29th.
 */
export async function insertMailClones(sql: Pool, clones: MailClones): Promise<void> {
  const { templateIds, userId, mailboxes } = clones;
  await sql.query(INSERT_CLONES, [
    templateIds,
    userId,
    mailboxes.locked,
    mailboxes.custom,
    mailboxes.inbox,
    clones.batch,
    clones.from,
    clones.to,
    templateIds.length,
    clones.threadSize,
  ]);
}

const attachmentColumns = Object.keys(ATTACHMENT_COLUMNS);

const INSERT_CLONES = `WITH templates AS (
  SELECT (row_number() OVER (ORDER BY id)) - 1 AS n, * FROM mails WHERE id = ANY($1::int8[])
), numbered AS (
  SELECT g, nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series($7::int, $8::int) AS g
), threaded AS (
  SELECT g, id, min(id) OVER (PARTITION BY g / $10::int) AS thread_id FROM numbered
), inserted AS (
  ${insertIntoMails({
    ...columnsOf(MESSAGE_COLUMNS, 't'),
    message_id: `'<bulk-' || $6::text || '-' || g || '@letterbox.test>'`,
    id: 'n.id',
    thread_id: 'n.thread_id',
    user_id: '$2::int',
    mailbox_id: 'CASE WHEN g % 100 = 0 THEN $3::int WHEN g % 10 = 0 THEN $4::int ELSE $5::int END',
    received_at: "now() - g * interval '31 seconds'",
    seen: 'g % 3 <> 0',
    flagged: 'g % 17 = 0',
    important: 'g % 29 = 0',
    authentication: 't.authentication',
    spam: 't.spam',
  })}
    FROM threaded n JOIN templates t ON t.n = (g / $10::int) % $9::int
  RETURNING id, storage_key
)
INSERT INTO attachments (mail_id, ${attachmentColumns.join(', ')})
SELECT i.id, ${attachmentColumns.map((column) => `a.${column}`).join(', ')}
  FROM inserted i JOIN mails t ON t.storage_key = i.storage_key AND t.id = ANY($1::int8[])
  JOIN attachments a ON a.mail_id = t.id`;
