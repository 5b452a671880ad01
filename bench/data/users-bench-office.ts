import type { Pool } from 'pg';
import { createUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { BENCH_PASSWORD } from './bench-accounts';

/**
 * The office the user-creation scenario creates its users in, through the admin API: an
 * office of its own, so that the users it makes (deleted after each run) never touch a
 * demo or test user, and its administrator, who signs in to make them.
 */
export const USERS_BENCH_DOMAIN = 'users-bench.letterbox.test';
export const USERS_BENCH_ADMIN = `admin@${USERS_BENCH_DOMAIN}`;

/** Makes sure the office, its domain and its administrator exist; returns the office's id. */
export async function ensureUsersBenchOffice(db: Database): Promise<number> {
  const office = await db.prisma.office.upsert({
    where: { domain: USERS_BENCH_DOMAIN },
    update: {},
    create: { domain: USERS_BENCH_DOMAIN, name: 'Users bench' },
  });
  // The admin API creates users only in a domain their office owns.
  await db.prisma.domain.upsert({ where: { name: USERS_BENCH_DOMAIN }, update: {}, create: { name: USERS_BENCH_DOMAIN, officeId: office.id } });
  const admin =
    (await db.prisma.user.findUnique({ where: { email: USERS_BENCH_ADMIN }, select: { id: true } })) ??
    (await createUser(db, { officeId: office.id, email: USERS_BENCH_ADMIN, displayName: 'Users bench admin', password: BENCH_PASSWORD }));
  await db.prisma.user.update({ where: { id: admin.id }, data: { role: 'admin', state: 'active', passwordChangeRequired: false } });
  return office.id;
}

/** Deletes every user of the office but its administrator (a run's, or what a killed run left); returns how many. */
export async function deleteBenchUsers(sql: Pool, officeId: number): Promise<number> {
  const { rowCount } = await sql.query('DELETE FROM users WHERE office_id = $1 AND email <> $2', [officeId, USERS_BENCH_ADMIN]);
  return rowCount ?? 0;
}
