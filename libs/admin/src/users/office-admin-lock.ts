import type { PoolClient } from 'pg';
import { LastAdminError, UserNotFoundError } from '../admin-errors';

export interface LockedUser {
  id: number;
  email: string;
  role: 'user' | 'admin';
  state: 'active' | 'disabled';
}

/**
 * Locks the office's active administrators, then the user (404 when not the office's). Every change that could
 * take an office's last administrator away locks them first, so two administrators demoting each other at once
 * are served one after the other, and the second sees the first's change.
 */
export async function lockUserAmongAdmins(client: PoolClient, officeId: number, userId: number): Promise<{ user: LockedUser; activeAdminIds: number[] }> {
  const admins = await client.query<{ id: number }>({
    text: `SELECT id FROM users WHERE office_id = $1 AND role = 'admin' AND state = 'active' ORDER BY id FOR UPDATE`,
    values: [officeId],
  });
  const { rows } = await client.query<LockedUser>({
    text: 'SELECT id, email, role, state FROM users WHERE id = $1 AND office_id = $2 FOR UPDATE',
    values: [userId, officeId],
  });
  if (!rows[0]) throw new UserNotFoundError(userId);
  return { user: rows[0], activeAdminIds: admins.rows.map((admin) => admin.id) };
}

/** Refuses when the user is the office's only active administrator. */
export function refuseLastAdmin(user: LockedUser, activeAdminIds: number[]): void {
  if (activeAdminIds.length === 1 && activeAdminIds[0] === user.id) throw new LastAdminError();
}
