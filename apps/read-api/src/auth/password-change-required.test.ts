import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, type SendApiProcess, startSendApiProcess, testDatabase } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PASSWORD_CHANGE_REQUIRED = 'https://letterbox.dev/problems/password-change-required';

/** The read and send APIs share the guard: a user an administrator gave a password must choose their own before anything else. */
describe('a password an administrator set must be changed first', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let db: Database;
  let api: RunningApi;
  let send: SendApiProcess;

  before(async () => {
    db = testDatabase();
    api = await startReadApiServer({ QUEUE_PREFIX: prefix });
    send = await startSendApiProcess({ QUEUE_PREFIX: prefix });
  });

  after(async () => {
    await Promise.all([api?.close(), send?.close()]);
    await db?.close();
  });

  const call = (url: string, token: string, method: string, path: string, body?: object) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });

  test('sign-in says so; every other route of both APIs answers 403 of its type until the password is changed', async () => {
    const user = await createTestUser(db, 'newcomer');
    // As the administrators' API creates a user: the column it sets.
    await db.sql.query('UPDATE users SET password_change_required = true WHERE id = $1', [user.id]);
    const login = await fetch(`${api.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const signedIn = (await login.json()) as { accessToken: string; passwordChangeRequired: boolean };
    assert.equal(signedIn.passwordChangeRequired, true);
    const token = signedIn.accessToken;

    for (const [url, method, path] of [
      [api.url, 'GET', '/v2/mailboxes'],
      [api.url, 'GET', '/v2/mails?limit=1'],
      [api.url, 'POST', '/v2/auth/totp'],
      [send.url, 'GET', '/v2/mails/send/1'],
    ]) {
      const response = await call(url, token, method, path);
      assert.equal(response.status, 403, `${method} ${path}`);
      const problem = (await response.json()) as { type: string; detail: string };
      assert.equal(problem.type, PASSWORD_CHANGE_REQUIRED, `${method} ${path}`);
      assert.match(problem.detail, /POST \/v2\/auth\/password/);
    }
    const stream = await call(api.url, token, 'GET', '/v2/events');
    assert.equal(stream.status, 403, 'nor may it follow live events');

    const me = await call(api.url, token, 'GET', '/v2/auth/me');
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { passwordChangeRequired: boolean }).passwordChangeRequired, true);

    const changed = await call(api.url, token, 'POST', '/v2/auth/password', { currentPassword: user.password, newPassword: 'my very own password' });
    assert.equal(changed.status, 200);
    const fresh = (await changed.json()) as { accessToken: string; passwordChangeRequired: boolean };
    assert.equal(fresh.passwordChangeRequired, false);
    assert.equal((await call(api.url, fresh.accessToken, 'GET', '/v2/mailboxes')).status, 200);
    assert.equal((await call(send.url, fresh.accessToken, 'GET', '/v2/mails/send/1')).status, 404, 'the send API lets it through too');
    assert.equal(
      ((await (await call(api.url, fresh.accessToken, 'GET', '/v2/auth/me')).json()) as { passwordChangeRequired: boolean }).passwordChangeRequired,
      false,
    );
  });

  test('the gated user may still sign out', async () => {
    const user = await createTestUser(db, 'leaver');
    await db.sql.query('UPDATE users SET password_change_required = true WHERE id = $1', [user.id]);
    const token = await api.login(user.email, user.password);
    assert.equal((await call(api.url, token, 'POST', '/v2/auth/logout')).status, 204);
    assert.equal((await call(api.url, token, 'GET', '/v2/auth/me')).status, 401);
  });
});
