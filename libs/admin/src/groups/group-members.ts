import type { PoolClient } from 'pg';
import { GroupLoopError, NotOfficeMembersError } from '../admin-errors';

/**
 * Serializes the changes to an office's groups: two changes that each add one group to the other, at once,
 * would otherwise each see no loop.
 */
export async function lockOfficeGroups(client: PoolClient, officeId: number): Promise<void> {
  await client.query({ text: `SELECT pg_advisory_xact_lock(hashtext('letterbox:office-groups'), $1)`, values: [officeId] });
}

/** Refuses ids that are not the office's users (or groups). */
export async function requireOfficeMembers(client: PoolClient, officeId: number, kind: 'users' | 'groups', ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await client.query<{ id: number }>({ text: `SELECT id FROM ${kind} WHERE office_id = $1 AND id = ANY($2::int[])`, values: [officeId, ids] });
  const found = new Set(rows.map((row) => row.id));
  const strangers = ids.filter((id) => !found.has(id));
  if (strangers.length > 0) throw new NotOfficeMembersError(kind, strangers);
}

/** Refuses member groups through which the group would contain itself. */
export async function refuseLoop(client: PoolClient, groupId: number, memberGroupIds: number[]): Promise<void> {
  if (memberGroupIds.length === 0) return;
  const { rows } = await client.query<{ loops: boolean }>({
    text: `WITH RECURSIVE reached(id) AS (
             SELECT unnest($2::int[])
             UNION
             SELECT m.member_group_id FROM group_members m JOIN reached r ON m.group_id = r.id WHERE m.member_group_id IS NOT NULL
           )
           SELECT EXISTS (SELECT 1 FROM reached WHERE id = $1) AS loops`,
    values: [groupId, memberGroupIds],
  });
  if (rows[0].loops) throw new GroupLoopError(groupId);
}

/** Sets the group's members of one kind to exactly these. */
export async function replaceMembers(client: PoolClient, groupId: number, kind: 'users' | 'groups', ids: number[]): Promise<void> {
  const column = kind === 'users' ? 'user_id' : 'member_group_id';
  await client.query({ text: `DELETE FROM group_members WHERE group_id = $1 AND ${column} IS NOT NULL`, values: [groupId] });
  await client.query({
    text: `INSERT INTO group_members (group_id, ${column}) SELECT $1, member FROM unnest($2::int[]) AS member`,
    values: [groupId, [...new Set(ids)]],
  });
}
