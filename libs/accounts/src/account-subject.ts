import type { Database } from '@letterbox/db';
import { UserGoneError } from './account-errors';
import type { EventSubject } from './security-events';

/** The signed-in user as the subject of a security event about their own account. */
export async function accountSubject(db: Database, userId: number): Promise<EventSubject> {
  const user = await db.prisma.user.findUnique({ where: { id: userId }, select: { id: true, officeId: true, email: true } });
  if (!user) throw new UserGoneError();
  return { userId: user.id, officeId: user.officeId, email: user.email };
}
