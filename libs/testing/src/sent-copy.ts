import type { Database } from '@letterbox/db';
import { waitFor } from './wait-for';

/**
 * A send's Sent copy, with its attachments, once the ingest worker has stored it: the copy
 * follows the send's 202, and may follow its delivery too.
 */
export function storedSentCopy(db: Database, mailId: number | null) {
  return waitFor(async () => (await db.prisma.mail.findUnique({ where: { id: BigInt(mailId ?? 0) }, include: { attachments: true } })) ?? undefined, {
    what: `Sent copy ${mailId} to be stored`,
  });
}
