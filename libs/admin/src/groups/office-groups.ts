import type { Pool, PoolClient } from 'pg';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { recordAct, type AdminAct } from '../admin-act';
import { GroupNotFoundError } from '../admin-errors';
import { addressTaken, normalizedAddress, requireOwnedDomain } from '../office-addresses';
import { ADMIN_GROUP_SELECT, type AdminGroup } from './admin-group-view';
import { lockOfficeGroups, refuseLoop, replaceMembers, requireOfficeMembers } from './group-members';

export interface NewGroup {
  name: string;
  address: string;
  userIds: number[];
  groupIds: number[];
}

export interface GroupChanges {
  name?: string;
  userIds?: number[];
  groupIds?: number[];
}

/**
 * Team addresses (sales@, support@): a group has an address in the office's domains, and users and other groups
 * of the office as members. A group that would contain itself, through any depth of groups, is refused when made.
 */
export class OfficeGroups {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
  ) {}

  async list(officeId: number): Promise<AdminGroup[]> {
    const { rows } = await this.sql.query<AdminGroup>({ text: `${ADMIN_GROUP_SELECT} WHERE g.office_id = $1 ORDER BY g.name, g.id`, values: [officeId] });
    return rows;
  }

  async get(officeId: number, groupId: number, client: Pool | PoolClient = this.sql): Promise<AdminGroup> {
    const { rows } = await client.query<AdminGroup>({ text: `${ADMIN_GROUP_SELECT} WHERE g.id = $1 AND g.office_id = $2`, values: [groupId, officeId] });
    if (!rows[0]) throw new GroupNotFoundError(groupId);
    return rows[0];
  }

  async create(act: AdminAct, group: NewGroup): Promise<AdminGroup> {
    const address = normalizedAddress(group.address);
    return inTransaction(this.sql, async (client) => {
      await lockOfficeGroups(client, act.officeId);
      await requireOwnedDomain(client, act.officeId, address);
      await requireOfficeMembers(client, act.officeId, 'users', group.userIds);
      await requireOfficeMembers(client, act.officeId, 'groups', group.groupIds);
      const { rows } = await client.query<{ id: number }>({
        text: 'INSERT INTO groups (office_id, name) VALUES ($1, $2) RETURNING id',
        values: [act.officeId, group.name],
      });
      const groupId = rows[0].id;
      await client
        .query({ text: `INSERT INTO addresses (address, office_id, kind, group_id) VALUES ($1, $2, 'group', $3)`, values: [address, act.officeId, groupId] })
        .catch(addressTaken(address));
      // A group just made is inside no other: its members cannot lead back to it.
      await replaceMembers(client, groupId, 'users', group.userIds);
      await replaceMembers(client, groupId, 'groups', group.groupIds);
      await recordAct(this.audit, client, act, 'group.create', address, { groupId, name: group.name, userIds: group.userIds, groupIds: group.groupIds });
      return this.get(act.officeId, groupId, client);
    });
  }

  async update(act: AdminAct, groupId: number, changes: GroupChanges): Promise<AdminGroup> {
    return inTransaction(this.sql, async (client) => {
      await lockOfficeGroups(client, act.officeId);
      const before = await this.get(act.officeId, groupId, client);
      if (changes.name !== undefined) await client.query({ text: 'UPDATE groups SET name = $2 WHERE id = $1', values: [groupId, changes.name] });
      if (changes.userIds) {
        await requireOfficeMembers(client, act.officeId, 'users', changes.userIds);
        await replaceMembers(client, groupId, 'users', changes.userIds);
      }
      if (changes.groupIds) {
        await requireOfficeMembers(client, act.officeId, 'groups', changes.groupIds);
        await refuseLoop(client, groupId, changes.groupIds);
        await replaceMembers(client, groupId, 'groups', changes.groupIds);
      }
      await recordAct(this.audit, client, act, 'group.update', before.address, { groupId, ...changes });
      return this.get(act.officeId, groupId, client);
    });
  }

  async remove(act: AdminAct, groupId: number): Promise<void> {
    await inTransaction(this.sql, async (client) => {
      await lockOfficeGroups(client, act.officeId);
      const group = await this.get(act.officeId, groupId, client);
      await client.query({ text: 'DELETE FROM groups WHERE id = $1', values: [groupId] });
      await recordAct(this.audit, client, act, 'group.delete', group.address, { groupId, name: group.name });
    });
  }
}
