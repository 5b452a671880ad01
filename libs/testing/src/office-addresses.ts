import { createUser, type CreatedUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import type { TestUser } from './user-factory';

/** Another user in the office of `of`, under its domain. */
export async function createColleagueOf(db: Database, of: TestUser, name: string): Promise<CreatedUser> {
  return createUser(db, { officeId: of.officeId, email: `${name}@${of.domain}`, displayName: `Test ${name}`, password: of.password });
}

/** An extra address of the user, as the admin API records one. */
export async function addTestAlias(db: Database, user: CreatedUser, address: string): Promise<void> {
  await db.prisma.address.create({ data: { address: address.toLowerCase(), officeId: user.officeId, kind: 'alias', userId: user.id } });
}

/**
 * A group of the office with its address and members, as the admin API records one. Its
 * members may include groups made later, added with addTestGroupMembers.
 */
export async function createTestGroup(
  db: Database,
  officeId: number,
  address: string,
  members: { userIds?: number[]; groupIds?: number[] } = {},
): Promise<number> {
  const group = await db.prisma.group.create({
    data: { officeId, name: address.split('@')[0], addresses: { create: { address: address.toLowerCase(), officeId, kind: 'group' } } },
    select: { id: true },
  });
  await addTestGroupMembers(db, group.id, members);
  return group.id;
}

/** Written as rows, unchecked: a test may make the loop the admin API refuses, to see that delivery still ends. */
export async function addTestGroupMembers(db: Database, groupId: number, members: { userIds?: number[]; groupIds?: number[] }): Promise<void> {
  await db.prisma.groupMember.createMany({
    data: [...(members.userIds ?? []).map((userId) => ({ groupId, userId })), ...(members.groupIds ?? []).map((memberGroupId) => ({ groupId, memberGroupId }))],
  });
}

/** The user's own quota (null: the deployment's USER_QUOTA_BYTES). */
export async function setTestQuota(db: Database, userId: number, quotaBytes: number | null): Promise<void> {
  await db.prisma.user.update({ where: { id: userId }, data: { quotaBytes: quotaBytes === null ? null : BigInt(quotaBytes) } });
}

/** Bytes of the user's live mail, as the triggers on mails keep them. */
export async function usedBytesOf(db: Database, userId: number): Promise<number> {
  const { rows } = await db.sql.query<{ used_bytes: string }>('SELECT used_bytes FROM users WHERE id = $1', [userId]);
  return Number(rows[0].used_bytes);
}
