import { createUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { DEMO_DOMAIN } from '@letterbox/demo-data';
import { BENCH_PASSWORD, SENDER_COUNT, senderEmails } from './bench-accounts';

/**
 * Makes sure sender-1 to sender-40 exist in the demo office, each with the system
 * mailboxes (the send API files a Sent copy of every send). Only missing ones are made.
 */
export async function ensureSenderUsers(db: Database): Promise<void> {
  const office = await db.prisma.office.findUniqueOrThrow({ where: { domain: DEMO_DOMAIN } });
  const wanted = senderEmails();
  const existing = new Set((await db.prisma.user.findMany({ where: { email: { in: wanted } }, select: { email: true } })).map((user) => user.email));
  const missing = wanted.filter((email) => !existing.has(email));
  for (const email of missing) {
    await createUser(db, { officeId: office.id, email, displayName: `Bench ${email.split('@')[0]}`, password: BENCH_PASSWORD });
  }
  console.log(`send scenario users: ${missing.length} added, ${SENDER_COUNT - missing.length} already there`);
}
