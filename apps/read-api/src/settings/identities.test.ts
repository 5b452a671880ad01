import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

describe('identities: GET /v2/identities and PATCH /v2/identities/:address', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  let alias: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'identities');
    alias = `sales@${user.domain}`;
    await db.sql.query("INSERT INTO addresses (address, office_id, kind, user_id) VALUES ($1, $2, 'alias', $3)", [alias, user.officeId, user.id]);
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = async (method: string, path: string, json?: unknown) => {
    const response = await fetch(`${api.url}/v2/identities${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test("the primary address and each alias, with the user's name until one is given, and a sanitized signature", async () => {
    const listed = await call('GET', '');
    assert.deepEqual(listed.body.items, [
      { address: user.email, primary: true, displayName: user.displayName, signatureText: null, signatureHtml: null },
      { address: alias, primary: false, displayName: user.displayName, signatureText: null, signatureHtml: null },
    ]);
    const changed = await call('PATCH', `/${encodeURIComponent(alias.toUpperCase())}`, {
      displayName: 'Sales desk',
      signatureText: '-- \nSales desk',
      signatureHtml: '<p>Sales desk<img src=x onerror="steal()"></p>',
    });
    assert.equal(changed.status, 200);
    assert.deepEqual(changed.body, {
      address: alias,
      primary: false,
      displayName: 'Sales desk',
      signatureText: '-- \nSales desk',
      signatureHtml: '<p>Sales desk<img src="x" /></p>',
    });
    const back = await call('PATCH', `/${encodeURIComponent(alias)}`, { displayName: null });
    assert.equal(back.body.displayName, user.displayName, "null puts the user's name back; the signature stays");
    assert.equal(back.body.signatureText, '-- \nSales desk');
  });

  test("an address that is not the user's is a 404; a bad change a 400 naming the field", async () => {
    assert.equal((await call('PATCH', '/someone@elsewhere.example', { displayName: 'X' })).status, 404);
    const refused = await call('PATCH', `/${encodeURIComponent(alias)}`, { displayName: '' });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(refused.body.errors), /displayName/);
  });
});
