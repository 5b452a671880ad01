import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import type { ProblemDetails as Problem } from '@letterbox/http';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

interface Device {
  token: string;
  platform: string;
  createdAt: string;
  lastSeenAt: string;
}

/** A token shaped like FCM's: an instance id, a colon, a long URL-safe base64 tail (over the router's 100-character parameters). */
const fcmToken = () => `${randomBytes(16).toString('base64url')}:APA91b${randomBytes(110).toString('base64url')}`;

describe('device routes', () => {
  let db: Database;
  let api: RunningApi;
  let alice: TestUser;
  let bob: TestUser;
  let aliceToken: string;
  let bobToken: string;

  before(async () => {
    db = testDatabase();
    api = await startReadApiServer();
    alice = await createTestUser(db, 'alice');
    bob = await createTestUser(db, 'bob');
    aliceToken = await api.login(alice.email, alice.password);
    bobToken = await api.login(bob.email, bob.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  function call(method: string, path: string, accessToken: string | null, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = accessToken ? { authorization: `Bearer ${accessToken}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${api.url}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  }

  const register = (accessToken: string, body: unknown) => call('POST', '/v2/devices', accessToken, body);
  const remove = (accessToken: string, token: string) => call('DELETE', `/v2/devices/${encodeURIComponent(token)}`, accessToken);
  const list = async (accessToken: string) => ((await (await call('GET', '/v2/devices', accessToken)).json()) as { items: Device[] }).items;

  async function problemOf(response: Response, status: number): Promise<Problem> {
    const text = await response.text();
    assert.equal(response.status, status, text);
    assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    return JSON.parse(text) as Problem;
  }

  test('registering a token is 201 with the device; again is 200, the same device refreshed', async () => {
    const token = fcmToken();
    const created = await register(aliceToken, { token, platform: 'android' });
    assert.equal(created.status, 201);
    const device = (await created.json()) as Device;
    assert.deepEqual(Object.keys(device).sort(), ['createdAt', 'lastSeenAt', 'platform', 'token']);
    assert.deepEqual([device.token, device.platform], [token, 'android']);

    const again = await register(aliceToken, { token });
    assert.equal(again.status, 200);
    const refreshed = (await again.json()) as Device;
    assert.equal(refreshed.platform, 'android', 'a platform not given is kept');
    assert.equal(refreshed.createdAt, device.createdAt);
    assert.ok(refreshed.lastSeenAt >= device.lastSeenAt);
    assert.equal((await list(aliceToken)).filter((listed) => listed.token === token).length, 1, 'still one device');
  });

  test('GET /v2/devices lists the user’s own devices only, latest first; platform defaults to web', async () => {
    const user = await createTestUser(db, 'lister');
    const accessToken = await api.login(user.email, user.password);
    const [first, second] = [fcmToken(), fcmToken()];
    assert.equal((await register(accessToken, { token: first, platform: 'ios' })).status, 201);
    assert.equal((await register(accessToken, { token: second })).status, 201);
    const devices = await list(accessToken);
    assert.deepEqual(
      devices.map((device) => [device.token, device.platform]),
      [
        [second, 'web'],
        [first, 'ios'],
      ],
    );
  });

  test('a token another user registered moves only from the same installation, proved by its secret', async () => {
    const token = fcmToken();
    const installationSecret = randomBytes(32).toString('base64url');
    assert.equal((await register(aliceToken, { token, platform: 'ios', installationSecret })).status, 201);
    // Someone who only learnt the token cannot take alice's notifications.
    for (const attempt of [{ token }, { token, installationSecret: randomBytes(32).toString('base64url') }]) {
      const problem = await problemOf(await register(bobToken, attempt), 409);
      assert.match(problem.detail, /installationSecret/);
    }
    assert.ok((await list(aliceToken)).some((device) => device.token === token));
    // The same phone, now signed in as bob.
    const moved = await register(bobToken, { token, installationSecret });
    assert.equal(moved.status, 201);
    assert.equal(((await moved.json()) as Device).platform, 'ios');
    assert.ok(!(await list(aliceToken)).some((device) => device.token === token));
    assert.ok((await list(bobToken)).some((device) => device.token === token));
    const { rows } = await db.sql.query<{ user_id: number }>('SELECT user_id FROM devices WHERE token = $1', [token]);
    assert.deepEqual(rows, [{ user_id: bob.id }]);
  });

  test('a token registered without a secret never moves to another user', async () => {
    const token = fcmToken();
    assert.equal((await register(aliceToken, { token })).status, 201);
    await problemOf(await register(bobToken, { token, installationSecret: randomBytes(32).toString('base64url') }), 409);
    assert.equal((await register(aliceToken, { token })).status, 200);
  });

  test('DELETE removes the user’s device: 204, then 404; another user’s token is a 404 and stays', async () => {
    const own = fcmToken();
    const bobs = fcmToken();
    await register(aliceToken, { token: own });
    await register(bobToken, { token: bobs });

    const removed = await remove(aliceToken, own);
    assert.equal(removed.status, 204);
    assert.equal(await removed.text(), '');
    assert.ok(!(await list(aliceToken)).some((device) => device.token === own));
    const gone = await problemOf(await remove(aliceToken, own), 404);
    assert.equal(gone.title, 'Not Found');

    await problemOf(await remove(aliceToken, bobs), 404);
    assert.ok(
      (await list(bobToken)).some((device) => device.token === bobs),
      'bob’s device is untouched',
    );
  });

  test('without a bearer token every device route is 401', async () => {
    const token = fcmToken();
    for (const response of [await call('GET', '/v2/devices', null), await register('', { token }), await remove('', token)]) {
      await problemOf(response, 401);
    }
    const { rows } = await db.sql.query('SELECT 1 FROM devices WHERE token = $1', [token]);
    assert.equal(rows.length, 0);
  });

  const invalid: Array<[string, unknown, string[]]> = [
    ['no token', { platform: 'web' }, ['body.token']],
    ['an empty token', { token: '' }, ['body.token']],
    ['a token with spaces', { token: 'not a token' }, ['body.token']],
    ['a token over 1024 characters', { token: 'a'.repeat(1025) }, ['body.token']],
    ['a token that is a number', { token: 12345 }, ['body.token']],
    ['an unknown platform', { token: 'tok-1', platform: 'windows' }, ['body.platform']],
    ['an unknown field', { token: 'tok-1', userId: 1 }, ['body.userId']],
    ['a short installation secret', { token: 'tok-1', installationSecret: 'guessable' }, ['body.installationSecret']],
    ['several at once', { token: 'a b', platform: 'symbian', extra: true }, ['body.token', 'body.platform', 'body.extra']],
    ['a JSON array', [], ['body']],
    ['a body that is not JSON', '{"token": ', ['body']],
  ];
  for (const [name, body, fields] of invalid) {
    test(`POST /v2/devices with ${name} is a 400 problem naming ${fields.join(', ')}`, async () => {
      const problem = await problemOf(await register(aliceToken, body), 400);
      assert.deepEqual(problem.errors?.map((error) => error.field).sort(), [...fields].sort(), JSON.stringify(problem));
      for (const field of fields) assert.ok(problem.detail.includes(field), `detail names ${field}`);
    });
  }

  test('DELETE with a malformed token is a 400 problem naming path.token', async () => {
    for (const token of ['not a token', 'slash/inside', 'star*token']) {
      const problem = await problemOf(await call('DELETE', `/v2/devices/${encodeURIComponent(token)}`, aliceToken), 400);
      assert.deepEqual(
        problem.errors?.map((error) => error.field),
        ['path.token'],
        token,
      );
    }
  });
});
