import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { generate } from 'otplib';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const TOTP_REQUIRED = 'https://letterbox.dev/problems/totp-required';
const TOTP_INVALID = 'https://letterbox.dev/problems/totp-invalid';
const TOTP_SETUP_REQUIRED = 'https://letterbox.dev/problems/totp-setup-required';

interface Problem {
  type: string;
  status: number;
  detail: string;
}

/** The code an authenticator app shows, `steps` periods from now. */
const codeOf = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/**
 * Waits out the last two seconds of a 30 s step, so that a code of the step before, made
 * now, is still within the server's one step of tolerance when it arrives.
 */
async function clearOfStepEnd(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 28_000) await sleep(30_000 - intoStep + 50);
}

describe('two-factor sign-in (TOTP) over the read API', () => {
  let db: Database;
  let api: RunningApi;

  before(async () => {
    db = testDatabase();
    api = await startReadApiServer({ SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3', SIGN_IN_WINDOW_SECONDS: '60', QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}` });
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  /** From its own client address each time unless one is given: the per-address limit stays out of the way. */
  const login = (body: object, client = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) =>
    fetch(`${api.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify(body),
    });

  const call = (token: string, method: string, path: string, body?: object) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });

  /** Sets TOTP up as the webmail does; answers the secret and recovery codes. The code of now stays unused. */
  async function turnOn(user: TestUser): Promise<{ secret: string; recoveryCodes: string[]; token: string }> {
    const token = await api.login(user.email, user.password);
    const started = await call(token, 'POST', '/v2/auth/totp');
    assert.equal(started.status, 200);
    const { secret, otpauthUrl } = (await started.json()) as { secret: string; otpauthUrl: string };
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(new URL(otpauthUrl).searchParams.get('secret'), secret);
    assert.match(otpauthUrl, new RegExp(`^otpauth://totp/Letterbox:${encodeURIComponent(user.email)}\\?`));
    const wrong = await call(token, 'POST', '/v2/auth/totp/confirm', { code: '000000' });
    assert.equal(wrong.status, 422, 'a wrong code does not sign the setter out');
    assert.equal(((await wrong.json()) as Problem).type, TOTP_INVALID);
    await clearOfStepEnd();
    const confirmed = await call(token, 'POST', '/v2/auth/totp/confirm', { code: await codeOf(secret, -1) });
    assert.equal(confirmed.status, 200);
    const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
    return { secret, recoveryCodes, token };
  }

  test('set up, confirmed, then needed at sign-in: missing and wrong codes are problems of their own types', async () => {
    const user = await createTestUser(db, 'tess');
    const { secret, recoveryCodes, token } = await turnOn(user);
    assert.equal(recoveryCodes.length, 10);
    assert.equal(((await (await call(token, 'GET', '/v2/auth/me')).json()) as { totpEnabled: boolean }).totpEnabled, true);
    const { rows } = await db.sql.query<{ code_hash: string }>('SELECT code_hash FROM totp_recovery_codes WHERE user_id = $1', [user.id]);
    assert.equal(rows.length, 10);
    assert.ok(
      rows.every((row) => /^[0-9a-f]{64}$/.test(row.code_hash)),
      'kept as SHA-256, never plain',
    );

    const missing = await login({ email: user.email, password: user.password });
    assert.equal(missing.status, 401);
    assert.equal(((await missing.json()) as Problem).type, TOTP_REQUIRED);
    const wrong = await login({ email: user.email, password: user.password, totp: '123456' });
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as Problem).type, TOTP_INVALID);
    const signedIn = await login({ email: user.email, password: user.password, totp: await codeOf(secret) });
    assert.equal(signedIn.status, 200);
    assert.equal((await call(((await signedIn.json()) as { accessToken: string }).accessToken, 'GET', '/v2/mailboxes')).status, 200);
    assert.equal((await call(token, 'POST', '/v2/auth/totp')).status, 409, 'no new secret while TOTP is on');
  });

  test('a code is taken once: replayed within its window, it is refused', async () => {
    const user = await createTestUser(db, 'ugo');
    const { secret } = await turnOn(user);
    const code = await codeOf(secret);
    assert.equal((await login({ email: user.email, password: user.password, totp: code })).status, 200);
    const replayed = await login({ email: user.email, password: user.password, totp: code });
    assert.equal(replayed.status, 401);
    assert.equal(((await replayed.json()) as Problem).type, TOTP_INVALID);
  });

  test('a recovery code signs in once, in any case and with its dash or not', async () => {
    const user = await createTestUser(db, 'vera');
    const { recoveryCodes } = await turnOn(user);
    assert.equal((await login({ email: user.email, password: user.password, totp: recoveryCodes[3].toUpperCase().replace('-', '') })).status, 200);
    const again = await login({ email: user.email, password: user.password, totp: recoveryCodes[3] });
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as Problem).type, TOTP_INVALID);
    assert.equal(await db.prisma.totpRecoveryCode.count({ where: { userId: user.id } }), 9);
    const { rows } = await db.sql.query<{ action: string }>(`SELECT action FROM audit_events WHERE target = $1 AND action = 'auth.recovery-code.use'`, [
      `user:${user.id}`,
    ]);
    assert.equal(rows.length, 1);
  });

  test('wrong codes are throttled like passwords: 429 with Retry-After, even for the right code', async () => {
    const user = await createTestUser(db, 'walt');
    const { secret } = await turnOn(user);
    // The setup's wrong code counted too: two more reach the limit of three.
    for (const guess of ['111111', '222222']) assert.equal((await login({ email: user.email, password: user.password, totp: guess })).status, 401);
    const refused = await login({ email: user.email, password: user.password, totp: await codeOf(secret) });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  });

  test('turned off with the password (a wrong one is 403 naming the field); then no code is needed', async () => {
    const user = await createTestUser(db, 'xena');
    const { secret } = await turnOn(user);
    const token = ((await (await login({ email: user.email, password: user.password, totp: await codeOf(secret) })).json()) as { accessToken: string })
      .accessToken;
    const wrong = await call(token, 'DELETE', '/v2/auth/totp', { password: 'not it' });
    assert.equal(wrong.status, 403);
    assert.match(((await wrong.json()) as Problem).detail, /body\.password/);
    assert.equal((await call(token, 'DELETE', '/v2/auth/totp', { password: user.password })).status, 204);
    assert.equal((await login({ email: user.email, password: user.password })).status, 200);
    assert.equal(((await (await call(token, 'GET', '/v2/auth/me')).json()) as { totpEnabled: boolean }).totpEnabled, false);
    assert.equal(await db.prisma.totpRecoveryCode.count({ where: { userId: user.id } }), 0);
  });

  test('an office that requires TOTP: a user without it signs in, told to set it up, and can do nothing else until then', async () => {
    const user = await createTestUser(db, 'yuri');
    await db.sql.query('UPDATE offices SET require_totp = true WHERE id = $1', [user.officeId]);
    const answer = (await (await login({ email: user.email, password: user.password })).json()) as { accessToken: string; totpSetupRequired: boolean };
    assert.equal(answer.totpSetupRequired, true);
    const token = answer.accessToken;
    const gated = await call(token, 'GET', '/v2/mailboxes');
    assert.equal(gated.status, 403);
    assert.equal(((await gated.json()) as Problem).type, TOTP_SETUP_REQUIRED);
    assert.equal(((await (await call(token, 'GET', '/v2/auth/me')).json()) as { totpSetupRequired: boolean }).totpSetupRequired, true);
    const { secret } = (await (await call(token, 'POST', '/v2/auth/totp')).json()) as { secret: string };
    assert.equal((await call(token, 'POST', '/v2/auth/totp/confirm', { code: await codeOf(secret) })).status, 200);
    assert.equal((await call(token, 'GET', '/v2/mailboxes')).status, 200, 'set up: the same token may do everything');
  });
});
