import { createUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { addBulkMails, DEMO_DOMAIN } from '@letterbox/demo-data';
import type { BlobStore } from '@letterbox/storage';
import { BENCH_PASSWORD, BULK_MAIL_COUNT, BULK_USER_EMAIL } from './bench-accounts';

/**
 * Makes sure the bulk user exists in the demo office and owns at least BULK_MAIL_COUNT
 * mails. Counting first makes a second run cost one count; a run that was stopped
 * half-way is topped up rather than started over.
 */
export async function ensureBulkUser(db: Database, blobs: BlobStore): Promise<void> {
  const office = await db.prisma.office.findUniqueOrThrow({ where: { domain: DEMO_DOMAIN } });
  const existing = await db.prisma.user.findUnique({ where: { email: BULK_USER_EMAIL } });
  const userId =
    existing?.id ?? (await createUser(db, { officeId: office.id, email: BULK_USER_EMAIL, displayName: 'Bulk Benchmark', password: BENCH_PASSWORD })).id;
  const { rows } = await db.sql.query<{ count: string }>('SELECT count(*) FROM mails WHERE user_id = $1', [userId]);
  const missing = BULK_MAIL_COUNT - Number(rows[0].count);
  if (missing <= 0) {
    console.log(`${BULK_USER_EMAIL} already has ${Number(rows[0].count).toLocaleString('en')} mails`);
    return;
  }
  console.log(`adding ${missing.toLocaleString('en')} mails to ${BULK_USER_EMAIL} (a few minutes for a million) ...`);
  const started = Date.now();
  await addBulkMails(db, blobs, userId, missing);
  console.log(`added in ${Math.round((Date.now() - started) / 1000)} s`);
}
