import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AdminGroup, AdminUser, OfficeDomain, OfficeSettingsView, SuppressionPage } from '@letterbox/admin';
import type { AuditPage } from '@letterbox/audit';
import type { Database } from '@letterbox/db';
import { testDatabase } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';
import { adminOffice, type AdminClient } from './testing/admin-client';

describe('admin API: groups, domains, office settings, suppressions and the audit log', () => {
  let db: Database;
  let api: RunningApi;
  let office: AdminClient;
  let other: AdminClient;

  before(async () => {
    db = testDatabase();
    api = await startReadApiServer();
    office = await adminOffice(db, api, 'office-admin');
    other = await adminOffice(db, api, 'other-admin');
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const addUser = async (client: AdminClient, name: string) =>
    (await client.call<AdminUser>('POST', '/v2/admin/users', { email: `${name}@${client.admin.domain}`, displayName: name, password: 'initial password' }))
      .body;

  test('a group of users and groups; a loop is a 409, members of another office a 422, its groups a 404', async () => {
    const ann = await addUser(office, 'ann');
    const team = await office.call<AdminGroup>('POST', '/v2/admin/groups', {
      name: 'Team',
      address: `team@${office.admin.domain}`,
      userIds: [ann.id],
      groupIds: [],
    });
    assert.equal(team.status, 201);
    const sales = await office.call<AdminGroup>('POST', '/v2/admin/groups', {
      name: 'Sales',
      address: `sales@${office.admin.domain}`,
      userIds: [office.admin.id],
      groupIds: [team.body.id],
    });
    assert.deepEqual(sales.body.members, {
      users: [{ id: office.admin.id, email: office.admin.email, displayName: office.admin.displayName }],
      groups: [{ id: team.body.id, name: 'Team', address: `team@${office.admin.domain}` }],
    });
    const loop = await office.call('PATCH', `/v2/admin/groups/${team.body.id}`, { groupIds: [sales.body.id] });
    assert.equal(loop.status, 409);
    assert.match(loop.body.detail, /would contain itself/);
    assert.equal((await office.call('POST', '/v2/admin/groups', { name: 'Taken', address: ann.email })).status, 409);
    const stranger = await addUser(other, 'stranger');
    assert.equal((await office.call('PATCH', `/v2/admin/groups/${team.body.id}`, { userIds: [stranger.id] })).status, 422);
    assert.equal((await other.call('GET', `/v2/admin/groups/${team.body.id}`)).status, 404);
    assert.equal((await other.call('PATCH', `/v2/admin/groups/${team.body.id}`, { name: 'Taken over' })).status, 404);
    assert.equal((await other.call('DELETE', `/v2/admin/groups/${team.body.id}`)).status, 404);
    const renamed = await office.call<AdminGroup>('PATCH', `/v2/admin/groups/${team.body.id}`, { name: 'Team EU', userIds: [] });
    assert.deepEqual([renamed.body.name, renamed.body.members.users], ['Team EU', []]);
    const listed = await office.call<{ groups: AdminGroup[] }>('GET', '/v2/admin/groups');
    assert.deepEqual(
      listed.body.groups.map((group) => group.name),
      ['Sales', 'Team EU'],
    );
    assert.equal((await office.call('DELETE', `/v2/admin/groups/${sales.body.id}`)).status, 204);
    assert.equal((await office.call('GET', `/v2/admin/groups/${sales.body.id}`)).status, 404);
  });

  test('an office adds a domain (a taken one is a 409) and requires two-factor sign-in', async () => {
    const name = `second-${office.admin.domain}`;
    const added = await office.call<OfficeDomain>('POST', '/v2/admin/domains', { name: name.toUpperCase() });
    assert.equal(added.status, 201);
    assert.equal(added.body.name, name);
    assert.equal((await other.call('POST', '/v2/admin/domains', { name })).status, 409);
    assert.equal((await office.call('POST', '/v2/admin/domains', { name: 'not a domain' })).status, 400);
    const domains = await office.call<{ domains: OfficeDomain[] }>('GET', '/v2/admin/domains');
    assert.deepEqual(domains.body.domains.map((domain) => domain.name).sort(), [office.admin.domain, name].sort());
    assert.equal((await office.call('POST', '/v2/admin/users', { email: `mia@${name}`, displayName: 'Mia', password: 'initial password' })).status, 201);
    const settings = await office.call<OfficeSettingsView>('PATCH', '/v2/admin/office', { requireTotp: true });
    assert.deepEqual(settings.body, { id: office.admin.officeId, name: `Test office ${office.admin.domain}`, domain: office.admin.domain, requireTotp: true });
    assert.deepEqual((await office.call<OfficeSettingsView>('GET', '/v2/admin/office')).body, settings.body);
    assert.equal((await other.call<OfficeSettingsView>('GET', '/v2/admin/office')).body.requireTotp, false);
  });

  test('the suppression list pages newest first; removing an address is audited; another office sees and removes none of it (404)', async () => {
    const officeId = office.admin.officeId;
    for (const name of ['first', 'second', 'third'])
      await db.sql.query(`INSERT INTO suppressions (office_id, address, reason) VALUES ($1, $2, '550 5.1.1 user unknown')`, [
        officeId,
        `${name}@bounce.example`,
      ]);
    const first = await office.call<SuppressionPage>('GET', '/v2/admin/suppressions?limit=2');
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.suppressions.map(({ address }) => address),
      ['third@bounce.example', 'second@bounce.example'],
    );
    const next = await office.call<SuppressionPage>('GET', `/v2/admin/suppressions?limit=2&cursor=${first.body.nextCursor}`);
    assert.deepEqual(
      next.body.suppressions.map(({ address, reason, sendId }) => ({ address, reason, sendId })),
      [{ address: 'first@bounce.example', reason: '550 5.1.1 user unknown', sendId: null }],
    );
    assert.equal(next.body.nextCursor, null);
    assert.equal((await office.call('GET', '/v2/admin/suppressions?cursor=0')).status, 400);
    const target = first.body.suppressions[0].id;
    assert.equal((await other.call('DELETE', `/v2/admin/suppressions/${target}`)).status, 404);
    assert.deepEqual((await other.call<SuppressionPage>('GET', '/v2/admin/suppressions')).body.suppressions, []);
    assert.equal((await office.call('DELETE', `/v2/admin/suppressions/${target}`)).status, 204);
    assert.equal((await office.call('DELETE', `/v2/admin/suppressions/${target}`)).status, 404);
    const left = await office.call<SuppressionPage>('GET', '/v2/admin/suppressions');
    assert.deepEqual(
      left.body.suppressions.map(({ address }) => address),
      ['second@bounce.example', 'first@bounce.example'],
    );
    const audit = await office.call<AuditPage>('GET', '/v2/admin/audit?action=suppression.delete');
    assert.deepEqual(
      audit.body.events.map(({ target: address }) => address),
      ['third@bounce.example'],
    );
  });

  test('the audit log shows every admin action with actor and client address, pages with filters, and offers no way to change it', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const bo = await addUser(office, 'audited-bo');
    await office.call('PATCH', `/v2/admin/users/${bo.id}`, { state: 'disabled' });
    await office.call('PATCH', `/v2/admin/users/${bo.id}`, { password: 'reset password' });
    const disabled = await office.call<AuditPage>('GET', `/v2/admin/audit?action=user.disable&actor=${encodeURIComponent(office.admin.email)}&since=${since}`);
    assert.equal(disabled.status, 200);
    assert.deepEqual(
      disabled.body.events.map(({ actor, actorUserId, action, target, details, clientAddress }) => ({
        actor,
        actorUserId,
        action,
        target,
        details,
        clientAddress,
      })),
      [
        {
          actor: office.admin.email,
          actorUserId: office.admin.id,
          action: 'user.disable',
          target: bo.email,
          details: { userId: bo.id },
          clientAddress: '127.0.0.1',
        },
      ],
    );
    const first = await office.call<AuditPage>('GET', '/v2/admin/audit?limit=2');
    assert.deepEqual(
      first.body.events.map((event) => event.action),
      ['user.password-reset', 'user.disable'],
    );
    const next = await office.call<AuditPage>('GET', `/v2/admin/audit?limit=2&cursor=${first.body.nextCursor}`);
    assert.equal(next.body.events[0].action, 'user.create');
    assert.equal((await office.call<AuditPage>('GET', `/v2/admin/audit?until=${since}&action=user.disable`)).body.events.length, 0);
    assert.ok(
      (await other.call<AuditPage>('GET', '/v2/admin/audit?limit=200')).body.events.every((event) => event.target !== bo.email),
      "another office's log",
    );
    assert.equal((await office.call('GET', '/v2/admin/audit?since=yesterday')).status, 400);
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) assert.equal((await office.call(method, '/v2/admin/audit', {})).status, 404, method);
    const id = first.body.events[0].id;
    await assert.rejects(db.sql.query(`UPDATE audit_events SET action = 'user.enable' WHERE id = $1`, [id]), /append-only/);
  });
});
