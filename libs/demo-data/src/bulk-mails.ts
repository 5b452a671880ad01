import { randomUUID } from 'node:crypto';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import type { BlobStore } from '@letterbox/storage';

export interface BulkMailsResult {
  inserted: number;
  lockedMailboxId: number;
}

const TEMPLATE_COUNT = 50;
/** Consecutive clones form conversations of this many mails, with one subject. */
const THREAD_SIZE = 3;

/**
 * Gives a user `count` more mails for benchmarks, quickly: a few dozen real messages are
 * stored, then cloned in SQL with their own Message-IDs, dates and flags (clones share
 * the templates' EML, which content addressing allows). One in a hundred lands in a
 * locked mailbox and one in ten in a custom one, as lists must tell them apart; every
 * three in a row are one conversation.
 */
export async function addBulkMails(db: Database, blobs: BlobStore, userId: number, count: number): Promise<BulkMailsResult> {
  const inbox = await mailboxOf(db, userId, 'Inbox', false);
  const projects = await mailboxOf(db, userId, 'Bulk projects', false);
  const locked = await mailboxOf(db, userId, 'Bulk locked', true);
  const templateIds: number[] = [];
  for (let index = 0; index < TEMPLATE_COUNT; index++) {
    const stored = await storeMail(db, blobs, { userId, mailboxId: inbox, eml: await randomMail(900_000 + index, {}) });
    templateIds.push(stored.id);
  }
  const batch = randomUUID().slice(0, 8);
  const remaining = count - TEMPLATE_COUNT;
  const chunk = 100_000;
  for (let offset = 0; offset < remaining; offset += chunk) {
    const size = Math.min(chunk, remaining - offset);
    await db.sql.query(
      `WITH templates AS (
         SELECT (row_number() OVER (ORDER BY id)) - 1 AS n, * FROM mails WHERE id = ANY($1::int8[])
       ), numbered AS (
         SELECT g, nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series($7::int, $8::int) AS g
       ), threaded AS (
         SELECT g, id, min(id) OVER (PARTITION BY g / ${THREAD_SIZE}) AS thread_id FROM numbered
       ), inserted AS (
         INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, from_name, to_addresses, cc_addresses,
                            subject, snippet, received_at, size, seen, flagged, important, has_attachments, storage_key, layout)
         SELECT n.id, n.thread_id, $2::int, CASE WHEN g % 100 = 0 THEN $3::int WHEN g % 10 = 0 THEN $4::int ELSE $5::int END,
                '<bulk-' || $6::text || '-' || g || '@letterbox.test>', t.from_address, t.from_name, t.to_addresses, t.cc_addresses,
                t.subject, t.snippet, now() - g * interval '31 seconds', t.size, g % 3 <> 0, g % 17 = 0, g % 29 = 0,
                t.has_attachments, t.storage_key, t.layout
           FROM threaded n JOIN templates t ON t.n = (g / ${THREAD_SIZE}) % $9::int
         RETURNING id, storage_key
       )
       INSERT INTO attachments (mail_id, part_id, filename, content_type, disposition, content_id, size, encoding, body_start, body_end)
       SELECT i.id, a.part_id, a.filename, a.content_type, a.disposition, a.content_id, a.size, a.encoding, a.body_start, a.body_end
         FROM inserted i JOIN mails t ON t.storage_key = i.storage_key AND t.id = ANY($1::int8[])
         JOIN attachments a ON a.mail_id = t.id`,
      [templateIds, userId, locked, projects, inbox, batch, offset + 1, offset + size, TEMPLATE_COUNT],
    );
  }
  await db.sql.query('ANALYZE mails');
  return { inserted: count, lockedMailboxId: locked };
}

async function mailboxOf(db: Database, userId: number, name: string, locked: boolean): Promise<number> {
  if (name === 'Inbox') {
    const inbox = await db.prisma.mailbox.findFirstOrThrow({ where: { userId, role: 'inbox' } });
    return inbox.id;
  }
  const mailbox = await db.prisma.mailbox.upsert({
    where: { userId_name: { userId, name } },
    create: { userId, name, role: 'custom', locked },
    update: {},
  });
  return mailbox.id;
}
