import { randomUUID } from 'node:crypto';
import type { Database } from '@letterbox/db';
import { insertMailClones, storeMail } from '@letterbox/mail';
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
    await insertMailClones(db.sql, {
      templateIds,
      userId,
      from: offset + 1,
      to: offset + size,
      batch,
      threadSize: THREAD_SIZE,
      mailboxes: { inbox, custom: projects, locked },
    });
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
