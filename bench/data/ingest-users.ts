import { createUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { BENCH_PASSWORD } from './bench-accounts';

/**
 * The recipients of the ingest scenarios: an office of their own, so that the mail they
 * get (deleted after each run) and their devices never touch a demo or test user.
 */
export const INGEST_BENCH_DOMAIN = 'ingest-bench.letterbox.test';
export const INGEST_RECIPIENT_COUNT = 100;
export const ingestRecipientEmail = (index: number) => `inbox-${index}@${INGEST_BENCH_DOMAIN}`;
/** inbox-1 to inbox-<count>. */
export const ingestRecipientEmails = (count = INGEST_RECIPIENT_COUNT) => Array.from({ length: count }, (_, index) => ingestRecipientEmail(index + 1));

export interface IngestRecipient {
  id: number;
  email: string;
}

/**
 * Makes sure the office and inbox-1 to inbox-<count> exist, each with the system mailboxes
 * (the ingest worker stores into the inbox). Only missing ones are made (a password hash
 * each, so the first run takes a few seconds more). Returns them in order.
 */
export async function ensureIngestRecipients(db: Database, count = INGEST_RECIPIENT_COUNT): Promise<IngestRecipient[]> {
  const office = await db.prisma.office.upsert({
    where: { domain: INGEST_BENCH_DOMAIN },
    update: {},
    create: { domain: INGEST_BENCH_DOMAIN, name: 'Ingest bench' },
  });
  // Mail for a domain no office owns is refused at RCPT: an office made after the domains' backfill needs its row.
  await db.prisma.domain.upsert({ where: { name: INGEST_BENCH_DOMAIN }, update: {}, create: { name: INGEST_BENCH_DOMAIN, officeId: office.id } });
  const wanted = ingestRecipientEmails(count);
  const existing = new Map(
    (await db.prisma.user.findMany({ where: { email: { in: wanted } }, select: { id: true, email: true } })).map((user) => [user.email, user.id]),
  );
  for (const email of wanted.filter((address) => !existing.has(address))) {
    const user = await createUser(db, { officeId: office.id, email, displayName: `Ingest ${email.split('@')[0]}`, password: BENCH_PASSWORD });
    existing.set(user.email, user.id);
  }
  return wanted.map((email) => ({ email, id: existing.get(email) as number }));
}
