import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { testDatabase } from '@letterbox/testing';
import { AddressTakenError, DomainNotOwnedError, GroupLoopError, GroupNotFoundError, NotOfficeMembersError } from '../admin-errors';
import { adminFixture, auditActions } from '../testing/admin-fixture';

describe('admin: groups, team addresses of an office', () => {
  let db: Database;

  before(() => {
    db = testDatabase();
  });

  after(async () => {
    await db.close();
  });

  async function officeWithUsers() {
    const admin = await adminFixture(db);
    const add = (name: string) => admin.addUser.add(admin.act, { email: `${name}@${admin.domain}`, displayName: name, password: 'initial password' });
    return { admin, ann: await add('ann'), ben: await add('ben') };
  }

  test('a group has an address of the office, users and groups as members; changing members replaces them', async () => {
    const { admin, ann, ben } = await officeWithUsers();
    const team = await admin.groups.create(admin.act, { name: 'Team', address: `Team@${admin.domain}`, userIds: [ann.id], groupIds: [] });
    const sales = await admin.groups.create(admin.act, { name: 'Sales', address: `sales@${admin.domain}`, userIds: [ben.id, ben.id], groupIds: [team.id] });
    assert.deepEqual(sales, {
      id: sales.id,
      name: 'Sales',
      address: `sales@${admin.domain}`,
      members: { users: [{ id: ben.id, email: ben.email, displayName: 'ben' }], groups: [{ id: team.id, name: 'Team', address: `team@${admin.domain}` }] },
    });
    const changed = await admin.groups.update(admin.act, sales.id, { name: 'Sales EU', userIds: [ann.id, ben.id] });
    assert.deepEqual(
      changed.members.users.map((user) => user.id),
      [ann.id, ben.id],
    );
    assert.deepEqual(
      changed.members.groups.map((group) => group.id),
      [team.id],
    );
    assert.deepEqual(
      (await admin.groups.list(admin.office.id)).map((group) => group.name),
      ['Sales EU', 'Team'],
    );
    await admin.groups.remove(admin.act, team.id);
    assert.deepEqual((await admin.groups.get(admin.office.id, sales.id)).members.groups, []);
    assert.equal((await db.sql.query('SELECT 1 FROM addresses WHERE address = $1', [`team@${admin.domain}`])).rowCount, 0);
    assert.deepEqual((await auditActions(db, admin.office.id)).slice(3), ['group.create', 'group.create', 'group.update', 'group.delete']);
  });

  test('a group that would contain itself, directly or through others, is refused and nothing changes', async () => {
    const { admin } = await officeWithUsers();
    const make = (name: string, groupIds: number[] = []) => admin.groups.create(admin.act, { name, address: `${name}@${admin.domain}`, userIds: [], groupIds });
    const a = await make('a');
    const b = await make('b', [a.id]);
    const c = await make('c', [b.id]);
    await assert.rejects(admin.groups.update(admin.act, a.id, { groupIds: [c.id] }), GroupLoopError);
    await assert.rejects(admin.groups.update(admin.act, a.id, { groupIds: [a.id] }), GroupLoopError);
    assert.deepEqual((await admin.groups.get(admin.office.id, a.id)).members.groups, []);
  });

  test('members and addresses outside the office are refused; another office’s group is not found', async () => {
    const { admin, ann } = await officeWithUsers();
    const other = await officeWithUsers();
    const theirs = await other.admin.groups.create(other.admin.act, { name: 'Theirs', address: `theirs@${other.admin.domain}`, userIds: [], groupIds: [] });
    const group = (overrides: object) => admin.groups.create(admin.act, { name: 'G', address: `g@${admin.domain}`, userIds: [], groupIds: [], ...overrides });
    await assert.rejects(group({ userIds: [other.ann.id] }), NotOfficeMembersError);
    await assert.rejects(group({ groupIds: [theirs.id] }), NotOfficeMembersError);
    await assert.rejects(group({ address: `g@${other.admin.domain}` }), DomainNotOwnedError);
    await assert.rejects(group({ address: ann.email }), AddressTakenError);
    await assert.rejects(admin.groups.get(admin.office.id, theirs.id), GroupNotFoundError);
    await assert.rejects(admin.groups.remove(admin.act, theirs.id), GroupNotFoundError);
  });
});
