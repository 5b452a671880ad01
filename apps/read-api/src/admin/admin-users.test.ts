import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AdminUser, AdminUserPage } from '@letterbox/admin';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';
import { adminOffice, call, type AdminClient } from './testing/admin-client';

describe('admin API: the users of an office, for its administrators only', () => {
  let db: Database;
  let api: RunningApi;
  let office: AdminClient;

  before(async () => {
    db = testDatabase();
    api = await startReadApiServer();
    office = await adminOffice(db, api);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const newUser = (name: string, extra: object = {}) => ({
    email: `${name}@${office.admin.domain}`,
    displayName: `User ${name}`,
    password: 'initial password',
    ...extra,
  });

  test('a user who is not an administrator is refused every admin route with 403', async () => {
    const colleague = await office.call<AdminUser>('POST', '/v2/admin/users', newUser('colleague'));
    await db.sql.query('UPDATE users SET password_change_required = false WHERE id = $1', [colleague.body.id]);
    const token = await api.login(colleague.body.email, 'initial password');
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/v2/admin/users'],
      ['POST', '/v2/admin/users', newUser('not-made')],
      ['GET', `/v2/admin/users/${office.admin.id}`],
      ['PATCH', `/v2/admin/users/${office.admin.id}`, { role: 'user' }],
      ['DELETE', `/v2/admin/users/${office.admin.id}`],
      ['POST', `/v2/admin/users/${colleague.body.id}/aliases`, { address: `x@${office.admin.domain}` }],
      ['GET', '/v2/admin/domains'],
      ['POST', '/v2/admin/domains', { name: 'not-made.test' }],
      ['GET', '/v2/admin/groups'],
      ['GET', '/v2/admin/office'],
      ['PATCH', '/v2/admin/office', { requireTotp: true }],
      ['GET', '/v2/admin/audit'],
    ];
    for (const [method, path, body] of routes) assert.equal((await call(api, method, path, body, token)).status, 403, `${method} ${path}`);
    assert.equal((await office.call('GET', `/v2/admin/users/${office.admin.id}`)).status, 200, 'the administrator is let through');
    assert.equal((await db.sql.query('SELECT 1 FROM users WHERE email = $1', [newUser('not-made').email])).rowCount, 0);
  });

  test('a user created by an administrator must change the password, and signs in with it', async () => {
    const created = await office.call<AdminUser>('POST', '/v2/admin/users', newUser('Mia', { quotaBytes: 10_000_000 }));
    assert.equal(created.status, 201);
    assert.deepEqual(
      { ...created.body, id: 0, createdAt: '' },
      {
        id: 0,
        email: `mia@${office.admin.domain}`,
        displayName: 'User Mia',
        role: 'user',
        state: 'active',
        quotaBytes: 10_000_000,
        customQuota: true,
        usedBytes: 0,
        aliases: [],
        totpEnabled: false,
        passwordChangeRequired: true,
        createdAt: '',
      },
    );
    const signIn = await fetch(`${api.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: created.body.email, password: 'initial password' }),
    });
    assert.equal(signIn.status, 200);
    assert.equal(((await signIn.json()) as { passwordChangeRequired: boolean }).passwordChangeRequired, true);
    const fetched = await office.call<AdminUser>('GET', `/v2/admin/users/${created.body.id}`);
    assert.deepEqual(fetched.body, created.body);
    const page = await office.call<AdminUserPage>('GET', `/v2/admin/users?q=${encodeURIComponent('user mia')}&limit=5`);
    assert.deepEqual(
      page.body.users.map((user) => user.id),
      [created.body.id],
    );
  });

  test('an address that exists is a 409, one outside the office’s domains a 422, bad input a 400', async () => {
    await office.call('POST', '/v2/admin/users', newUser('taken'));
    const again = await office.call('POST', '/v2/admin/users', newUser('TAKEN'));
    assert.equal(again.status, 409);
    assert.match(again.body.detail, /exists already/);
    const foreign = await office.call('POST', '/v2/admin/users', { ...newUser('x'), email: 'x@not-ours.test' });
    assert.equal(foreign.status, 422);
    assert.match(foreign.body.detail, /not one of the office's domains/);
    assert.equal((await office.call('POST', '/v2/admin/users', { ...newUser('short'), password: 'short' })).status, 400);
    assert.equal((await office.call('POST', '/v2/admin/users', { ...newUser('odd'), role: 'root' })).status, 400);
  });

  test('another office’s users and aliases are not found (404), for reading or changing', async () => {
    const other = await createTestUser(db, 'elsewhere');
    assert.equal((await office.call('GET', `/v2/admin/users/${other.id}`)).status, 404);
    assert.equal((await office.call('PATCH', `/v2/admin/users/${other.id}`, { displayName: 'Taken over' })).status, 404);
    assert.equal((await office.call('DELETE', `/v2/admin/users/${other.id}`)).status, 404);
    assert.equal((await office.call('POST', `/v2/admin/users/${other.id}/aliases`, { address: `x@${office.admin.domain}` })).status, 404);
    const list = await office.call<AdminUserPage>('GET', '/v2/admin/users?limit=200');
    assert.ok(!list.body.users.some((user) => user.id === other.id));
    assert.equal((await db.sql.query('SELECT display_name FROM users WHERE id = $1', [other.id])).rows[0].display_name, other.displayName);
  });

  test('the last administrator cannot be demoted, disabled or deleted: 409', async () => {
    const solo = await adminOffice(db, api, 'solo-admin');
    for (const [method, body] of [
      ['PATCH', { role: 'user' }],
      ['PATCH', { state: 'disabled' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await solo.call(method, `/v2/admin/users/${solo.admin.id}`, body);
      assert.equal(refused.status, 409, `${method} ${JSON.stringify(body)}`);
      assert.match(refused.body.detail, /last active administrator/);
    }
    assert.equal((await solo.call('GET', '/v2/admin/users')).status, 200, 'still the administrator');
  });

  test('disabling, a password reset and a deletion end every token of the user at once', async () => {
    for (const change of [{ state: 'disabled' }, { password: 'reset by admin' }, 'delete'] as const) {
      const user = await office.call<AdminUser>('POST', '/v2/admin/users', newUser(`ended-${Math.random().toString(36).slice(2, 8)}`));
      const token = await api.login(user.body.email, 'initial password');
      // The profile answers while a password change is required, so the token itself is what is tested.
      assert.equal((await call(api, 'GET', '/v2/auth/me', undefined, token)).status, 200);
      const done =
        change === 'delete'
          ? await office.call('DELETE', `/v2/admin/users/${user.body.id}`)
          : await office.call('PATCH', `/v2/admin/users/${user.body.id}`, change);
      assert.equal(done.status, change === 'delete' ? 204 : 200);
      assert.equal((await call(api, 'GET', '/v2/auth/me', undefined, token)).status, 401, JSON.stringify(change));
    }
  });

  test('an alias is added to a user and removed again; a promoted user may administer', async () => {
    const user = await office.call<AdminUser>('POST', '/v2/admin/users', newUser('aliased'));
    const added = await office.call<AdminUser>('POST', `/v2/admin/users/${user.body.id}/aliases`, { address: `Sales@${office.admin.domain}` });
    assert.equal(added.status, 201);
    assert.deepEqual(added.body.aliases, [`sales@${office.admin.domain}`]);
    assert.equal((await office.call('POST', `/v2/admin/users/${user.body.id}/aliases`, { address: `sales@${office.admin.domain}` })).status, 409);
    assert.equal((await office.call('POST', `/v2/admin/users/${user.body.id}/aliases`, { address: 'sales@not-ours.test' })).status, 422);
    assert.equal((await office.call('DELETE', `/v2/admin/users/${user.body.id}/aliases/${encodeURIComponent(`sales@${office.admin.domain}`)}`)).status, 204);
    assert.equal((await office.call('DELETE', `/v2/admin/users/${user.body.id}/aliases/${encodeURIComponent(`sales@${office.admin.domain}`)}`)).status, 404);
    const promoted = await office.call<AdminUser>('PATCH', `/v2/admin/users/${user.body.id}`, { role: 'admin', displayName: 'Aliased Admin' });
    assert.deepEqual([promoted.body.role, promoted.body.displayName], ['admin', 'Aliased Admin']);
    await db.sql.query('UPDATE users SET password_change_required = false WHERE id = $1', [user.body.id]);
    const token = await api.login(user.body.email, 'initial password');
    assert.equal((await call(api, 'GET', '/v2/admin/users', undefined, token)).status, 200);
  });
});
