import type { Database } from '@letterbox/db';
import type { EventSubject } from './security-events';

/** A user as a sign-in's security events name them. */
export const subjectOf = (user: { id: number; officeId: number; email: string }): EventSubject => ({
  userId: user.id,
  officeId: user.officeId,
  email: user.email,
});

/** An address no user has: in the office of its domain, if an office has it, so that office's administrators see it. */
export async function unknownSubject(db: Database, account: string): Promise<EventSubject> {
  const domain = await db.prisma.domain.findUnique({
    where: { name: account.slice(account.lastIndexOf('@') + 1) },
    select: { officeId: true },
  });
  return { userId: null, officeId: domain?.officeId ?? null, email: account };
}
