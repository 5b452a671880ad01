import type { Pool } from 'pg';

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
  await sql.query(
    `WITH templates AS (
       SELECT (row_number() OVER (ORDER BY id)) - 1 AS n, * FROM mails WHERE id = ANY($1::int8[])
     ), numbered AS (
       SELECT g, nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series($7::int, $8::int) AS g
     ), threaded AS (
       SELECT g, id, min(id) OVER (PARTITION BY g / $10::int) AS thread_id FROM numbered
     ), inserted AS (
       INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, from_name, to_addresses, cc_addresses,
                          subject, snippet, received_at, size, seen, flagged, important, has_attachments, storage_key, layout)
       SELECT n.id, n.thread_id, $2::int, CASE WHEN g % 100 = 0 THEN $3::int WHEN g % 10 = 0 THEN $4::int ELSE $5::int END,
              '<bulk-' || $6::text || '-' || g || '@letterbox.test>', t.from_address, t.from_name, t.to_addresses, t.cc_addresses,
              t.subject, t.snippet, now() - g * interval '31 seconds', t.size, g % 3 <> 0, g % 17 = 0, g % 29 = 0,
              t.has_attachments, t.storage_key, t.layout
         FROM threaded n JOIN templates t ON t.n = (g / $10::int) % $9::int
       RETURNING id, storage_key
     )
     INSERT INTO attachments (mail_id, part_id, filename, content_type, disposition, content_id, size, encoding, body_start, body_end)
     SELECT i.id, a.part_id, a.filename, a.content_type, a.disposition, a.content_id, a.size, a.encoding, a.body_start, a.body_end
       FROM inserted i JOIN mails t ON t.storage_key = i.storage_key AND t.id = ANY($1::int8[])
       JOIN attachments a ON a.mail_id = t.id`,
    [templateIds, userId, mailboxes.locked, mailboxes.custom, mailboxes.inbox, clones.batch, clones.from, clones.to, templateIds.length, clones.threadSize],
  );
}
