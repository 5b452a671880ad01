import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { generate, generateSecret } from 'otplib';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser, withFaultsExpected } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

describe('sign-in attempts are limited in Redis, per account and per client address, for every process', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let db: Database;
  let first: RunningApi;
  let second: RunningApi;

  before(async () => {
    db = testDatabase();
    const env = { QUEUE_PREFIX: prefix, SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3', SIGN_IN_MAX_FAILURES_PER_CLIENT: '6', SIGN_IN_WINDOW_SECONDS: '60' };
    first = await startReadApiServer(env);
    second = await startReadApiServer(env);
  });

  after(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await db?.close();
  });

  /** From `client`, as the webmail's proxy on this machine says it (a trusted loopback hop). */
  const login = (api: RunningApi, email: string, password: string, client: string, totp?: string) =>
    fetch(`${api.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email, password, ...(totp && { totp }) }),
    });

  async function expectWait(response: Response, message?: string) {
    assert.equal(response.status, 429, message ?? (await response.clone().text()));
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const retryAfter = Number(response.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(((await response.json()) as { detail: string }).detail, /too many wrong passwords/);
  }

  test('past the account’s limit, spread over processes and addresses, even the right password waits', async () => {
    const user: TestUser = await createTestUser(db, 'guessed');
    for (const [index, api] of [first, second, first].entries()) {
      assert.equal((await login(api, user.email, `guess ${index}`, `198.51.100.${index + 1}`)).status, 401);
    }
    await expectWait(await login(second, user.email, 'guess 4', '198.51.100.9'));
    await expectWait(await login(first, user.email, user.password, '198.51.100.10'));
  });

  test('past the account’s limit, the right password still signs in from an address that signed in before, in any process', async () => {
    const user = await createTestUser(db, 'owner');
    const home = '198.51.100.77';
    assert.equal((await login(first, user.email, user.password, home)).status, 200);
    for (let index = 0; index < 3; index++) assert.equal((await login(second, user.email, `guess ${index}`, `203.0.113.${50 + index}`)).status, 401);
    await expectWait(await login(first, user.email, user.password, '203.0.113.60'));
    assert.equal((await login(second, user.email, user.password, home)).status, 200);
    await expectWait(await login(first, user.email, 'guess from home', home), 'a wrong password from home waits too');
    const { rows } = await db.sql.query<{ action: string }>(`SELECT action FROM audit_events WHERE target = $1 ORDER BY id`, [`user:${user.id}`]);
    assert.deepEqual(
      rows.map((row) => row.action),
      ['auth.sign-in', 'auth.sign-in.failed', 'auth.sign-in.failed', 'auth.sign-in.failed', 'auth.lockout', 'auth.sign-in', 'auth.sign-in.failed'],
    );
  });

  test('past the account’s limit, the right password and a TOTP code sign in from anywhere', async () => {
    const user = await createTestUser(db, 'twofactor');
    const secret = generateSecret();
    await db.sql.query('UPDATE users SET totp_secret = $2, totp_enabled_at = now() WHERE id = $1', [user.id, secret]);
    for (let index = 0; index < 3; index++) assert.equal((await login(first, user.email, `guess ${index}`, `203.0.113.${70 + index}`)).status, 401);
    const asked = await login(first, user.email, user.password, '203.0.113.80');
    assert.equal(asked.status, 401);
    assert.equal(((await asked.json()) as { type: string }).type, 'https://letterbox.dev/problems/totp-required');
    const withCode = await login(second, user.email, user.password, '203.0.113.80', await generate({ secret }));
    assert.equal(withCode.status, 200);
  });

  test('an unknown account is limited the same way as a known one', async () => {
    const email = `nobody-${randomUUID().slice(0, 6)}@nowhere.example`;
    for (let index = 0; index < 3; index++) assert.equal((await login(first, email, 'guess', `203.0.113.${index + 1}`)).status, 401);
    await expectWait(await login(first, email, 'guess', '203.0.113.9'));
  });

  test('past the address’s limit, over many accounts, that address waits; another address does not', async () => {
    const users = await Promise.all(Array.from({ length: 3 }, (_, index) => createTestUser(db, `sprayed${index}`)));
    const attacker = '192.0.2.66';
    for (const user of users) for (const guess of ['a', 'b']) assert.equal((await login(first, user.email, guess, attacker)).status, 401);
    const spared = await createTestUser(db, 'spared');
    await expectWait(await login(second, spared.email, spared.password, attacker));
    assert.equal((await login(second, spared.email, spared.password, '192.0.2.67')).status, 200);
  });

  test('a spoofed X-Forwarded-For from a client that is not a trusted proxy is not believed', async () => {
    // The proxy's own hop is loopback; a client saying it is someone else, from the left of the list, is not taken at its word.
    const user = await createTestUser(db, 'spoofer');
    const attacker = '192.0.2.99';
    for (let index = 0; index < 6; index++) {
      assert.equal((await login(first, `x${index}-${user.email}`, 'guess', `10.9.9.${index}, ${attacker}`)).status, 401);
    }
    await expectWait(await login(first, user.email, user.password, `10.9.9.77, ${attacker}`));
  });

  test('with Redis away, sign-in answers 503 with Retry-After rather than letting guesses through uncounted', async () =>
    withFaultsExpected(async () => {
      const cut = await startReadApiServer({ QUEUE_PREFIX: prefix, REDIS_URL: 'redis://127.0.0.1:6393' });
      try {
        const user = await createTestUser(db, 'redisless');
        const response = await login(cut, user.email, user.password, '198.51.100.200');
        assert.equal(response.status, 503);
        assert.ok(Number(response.headers.get('retry-after')) > 0);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      } finally {
        await cut.close();
      }
    }));
});
