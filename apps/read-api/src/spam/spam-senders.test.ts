import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

describe('blocked and allowed senders', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'sender-rules');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = (method: string, path: string, json?: unknown, as = token) =>
    fetch(`${api.url}/v2/spam/${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  const addresses = async (list: string, as = token) =>
    ((await (await call('GET', list, undefined, as)).json()) as { items: Array<{ address: string }> }).items.map(({ address }) => address);

  test('block a sender, then allow them instead: an address is on one list at most', async () => {
    assert.equal((await call('POST', 'blocked', { address: 'Pest@Example.org' })).status, 204);
    assert.deepEqual(await addresses('blocked'), ['pest@example.org']);
    assert.equal((await call('POST', 'allowed', { address: 'pest@example.org' })).status, 204);
    assert.deepEqual(await addresses('blocked'), []);
    assert.deepEqual(await addresses('allowed'), ['pest@example.org']);
  });

  test('take an address off a list; one not on it is 404', async () => {
    assert.equal((await call('DELETE', `allowed/${encodeURIComponent('PEST@example.org')}`)).status, 204);
    assert.deepEqual(await addresses('allowed'), []);
    const missing = await call('DELETE', 'allowed/pest@example.org');
    assert.equal(missing.status, 404);
  });

  test('bad input is a 400 problem naming it; lists are per user', async () => {
    const bad = await call('POST', 'blocked', { address: 'not an address' });
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(await bad.text(), /address/);
    assert.equal((await call('GET', 'elsewhere')).status, 400);
    await call('POST', 'blocked', { address: 'mine@example.org' });
    const other = await createTestUser(db, 'sender-rules-other');
    assert.deepEqual(await addresses('blocked', await api.login(other.email, other.password)), []);
  });
});
