import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { AccessTokens } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, testSettings, type TestUser } from '@letterbox/testing';
import { loadReadApiConfig } from '../read-api.config';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

interface LoginAnswer {
  accessToken: string;
  tokenType: string;
  expiresAt: string;
  user: { id: number; officeId: number; email: string; displayName: string; role: string };
  passwordChangeRequired: boolean;
  totpSetupRequired: boolean;
}

describe('signing in', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let other: TestUser;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'signer');
    other = await createTestUser(db, 'other');
    api = await startReadApiServer();
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const login = (email: string, password: string) =>
    fetch(`${api.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  const me = (token: string) => fetch(`${api.url}/v2/auth/me`, { headers: { authorization: `Bearer ${token}` } });

  test('the right email and password give a bearer token, its expiry and the user', async () => {
    const before = Date.now();
    const response = await login(user.email, user.password);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as LoginAnswer;
    assert.deepEqual(Object.keys(body).sort(), ['accessToken', 'expiresAt', 'passwordChangeRequired', 'tokenType', 'totpSetupRequired', 'user']);
    assert.equal(body.tokenType, 'Bearer');
    assert.equal(body.passwordChangeRequired, false);
    assert.equal(body.totpSetupRequired, false);
    assert.match(body.accessToken, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(body.user, { id: user.id, officeId: user.officeId, email: user.email, displayName: 'Test signer', role: 'user' });
    const expiresAt = new Date(body.expiresAt);
    assert.equal(expiresAt.toISOString(), body.expiresAt, 'expiresAt is an ISO 8601 instant');
    const ttl = testSettings().AUTH_TOKEN_TTL_SECONDS * 1000;
    assert.ok(expiresAt.getTime() > before, 'expires in the future');
    assert.ok(expiresAt.getTime() <= Date.now() + ttl, 'no later than the configured lifetime');
    assert.ok(expiresAt.getTime() >= before + ttl - 1000, 'the configured lifetime, to the second');
    const claims = new AccessTokens(testSettings().AUTH_TOKEN_SECRET, testSettings().AUTH_TOKEN_TTL_SECONDS).verify(body.accessToken);
    assert.deepEqual(claims, {
      userId: user.id,
      officeId: user.officeId,
      tokenVersion: 0,
      sessionId: claims?.sessionId,
      expiresAt: expiresAt.getTime() / 1000,
    });
    assert.match(claims?.sessionId ?? '', /^[A-Za-z0-9_-]{22}$/, 'a session of its own');
  });

  test('the answer never carries the password or its hash', async () => {
    const text = await (await login(user.email, user.password)).text();
    assert.ok(!text.includes(user.password));
    assert.ok(!/argon|passwordHash|\$argon2/i.test(text));
  });

  test('GET /v2/auth/me tells who the token belongs to, what they must do, their addresses and storage', async () => {
    const token = ((await (await login(user.email, user.password)).json()) as LoginAnswer).accessToken;
    const alias = `signer.alias@${user.domain}`;
    await db.sql.query(`INSERT INTO addresses (address, office_id, kind, user_id) VALUES ($1, $2, 'alias', $3)`, [alias, user.officeId, user.id]);
    const response = await me(token);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      id: user.id,
      officeId: user.officeId,
      email: user.email,
      displayName: 'Test signer',
      role: 'user',
      locale: null,
      passwordChangeRequired: false,
      totpEnabled: false,
      totpSetupRequired: false,
      addresses: [user.email, alias],
      usage: { usedBytes: 0, quotaBytes: loadReadApiConfig().USER_QUOTA_BYTES },
    });
    await db.sql.query('UPDATE users SET quota_bytes = 12345 WHERE id = $1', [user.id]);
    assert.deepEqual(((await (await me(token)).json()) as { usage: unknown }).usage, { usedBytes: 0, quotaBytes: 12345 });
    const otherToken = await api.login(other.email, other.password);
    assert.equal(((await (await me(otherToken)).json()) as { id: number }).id, other.id);
  });

  test("PATCH /v2/auth/me changes the user's language and answers the profile; an unknown language or field is a 400 naming it", async () => {
    const token = await api.login(other.email, other.password);
    const patch = (body: unknown) =>
      fetch(`${api.url}/v2/auth/me`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const changed = await patch({ locale: 'ko' });
    assert.equal(changed.status, 200);
    assert.equal(((await changed.json()) as { locale: string }).locale, 'ko');
    assert.equal(((await (await me(token)).json()) as { locale: string }).locale, 'ko');
    for (const [body, field] of [
      [{ locale: 'fr' }, 'body.locale'],
      [{ language: 'ko' }, 'body'],
    ] as const) {
      const refused = await patch(body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.headers.get('content-type'), PROBLEM_JSON);
      assert.match(((await refused.json()) as { detail: string }).detail, new RegExp(field.replace('.', '\\.')), JSON.stringify(body));
    }
    assert.equal(((await (await patch({ locale: 'en' })).json()) as { locale: string }).locale, 'en');
  });

  test('the email is compared case-insensitively', async () => {
    const [local, domain] = user.email.split('@');
    for (const email of [user.email.toUpperCase(), `${local[0].toUpperCase()}${local.slice(1)}@${domain.toUpperCase()}`]) {
      const response = await login(email, user.password);
      assert.equal(response.status, 200, email);
      const body = (await response.json()) as LoginAnswer;
      assert.equal(body.user.id, user.id);
      assert.equal(body.user.email, user.email, 'the stored, lower-case email is returned');
    }
  });

  test('the password is compared exactly', async () => {
    for (const password of [user.password.toUpperCase(), `${user.password} `, user.password.slice(0, -1)]) {
      assert.equal((await login(user.email, password)).status, 401, JSON.stringify(password));
    }
  });

  test('a wrong password and an unknown email are the same 401 problem', async () => {
    const answers = [
      await login(user.email, 'wrong password'),
      await login(`nobody@${user.domain}`, user.password),
      await login('nobody@nowhere.example', 'wrong password'),
      await login(user.email, 'x'),
      await login(`signer@x${other.domain}`, user.password),
    ];
    const bodies = [];
    for (const response of answers) {
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
      assert.equal(response.headers.get('www-authenticate'), answers[0].headers.get('www-authenticate'));
      bodies.push(await response.text());
    }
    const problem = JSON.parse(bodies[0]) as { status: number; title: string; detail: string; errors?: unknown };
    assert.equal(problem.status, 401);
    assert.equal(problem.title, 'Unauthorized');
    assert.equal(problem.errors, undefined);
    assert.ok(!problem.detail.includes(user.email), 'the detail does not echo the email');
    for (const body of bodies) assert.equal(body, bodies[0]);
  });

  test('a token of a user who no longer exists is refused by /v2/auth/me', async () => {
    const gone = await createTestUser(db, 'leaver');
    const token = await api.login(gone.email, gone.password);
    assert.equal((await me(token)).status, 200);
    await db.prisma.user.delete({ where: { id: gone.id } });
    const response = await me(token);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    assert.equal((await login(gone.email, gone.password)).status, 401, 'nor can the user sign in again');
  });

  test('a token issued with another secret, or expired, is refused by /v2/auth/me', async () => {
    const forged = new AccessTokens('a-different-secret-with-more-than-32-characters', 3600).issue({
      userId: user.id,
      officeId: user.officeId,
      tokenVersion: 0,
    });
    const expired = new AccessTokens(testSettings().AUTH_TOKEN_SECRET, 60).issue(
      { userId: user.id, officeId: user.officeId, tokenVersion: 0 },
      Date.now() - 3600_000,
    );
    for (const token of [forged.accessToken, expired.accessToken]) {
      const response = await me(token);
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    }
    const fresh = new AccessTokens(testSettings().AUTH_TOKEN_SECRET, 60).issue({ userId: user.id, officeId: user.officeId, tokenVersion: 0 });
    assert.equal((await me(fresh.accessToken)).status, 200, 'a token the server’s secret signed, in date, is accepted');
    // Signed with the server's secret, but for another office than the user's: the office claim is checked.
    const elsewhere = new AccessTokens(testSettings().AUTH_TOKEN_SECRET, 60).issue({ userId: user.id, officeId: other.officeId + 1000, tokenVersion: 0 });
    assert.equal((await me(elsewhere.accessToken)).status, 401);
  });

  test('login is reachable without a token and ignores a bad one', async () => {
    const response = await fetch(`${api.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer garbage' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    assert.equal(response.status, 200);
  });

  test('the bearer scheme is case-insensitive; two Authorization headers are refused', async () => {
    const token = await api.login(user.email, user.password);
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const response = await fetch(`${api.url}/v2/auth/me`, { headers: { authorization: `${scheme} ${token}` } });
      assert.equal(response.status, 200, scheme);
    }
    const twice = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${api.url}/v2/auth/me`);
      // Two header lines, as a confused or hostile client sends them; Node would keep only the first.
      request.setHeader('authorization', [`Bearer ${token}`, 'Bearer someone-else']);
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.end();
    });
    assert.equal(twice.status, 400);
    assert.match(twice.body, /header\.authorization: send it once/);
  });
});
