import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { AccessTokens } from './access-tokens';
import { hashPassword, verifyPassword } from './passwords';

const tokens = new AccessTokens('a-test-secret-that-is-long-enough-123', 3600);

test('an issued token verifies to its claims until it expires', () => {
  const now = Date.UTC(2026, 0, 1);
  const { accessToken, expiresAt } = tokens.issue({ userId: 42, officeId: 7, tokenVersion: 3, sessionId: 'phone-session' }, now);
  assert.deepEqual(tokens.verify(accessToken, now), { userId: 42, officeId: 7, tokenVersion: 3, sessionId: 'phone-session', expiresAt: now / 1000 + 3600 });
  assert.equal(expiresAt.getTime(), now + 3600_000);
  assert.equal(tokens.verify(accessToken, now + 3600_000), undefined);
});

test('each token issued without a session starts one of its own', () => {
  const sessions = [tokens.issue({ userId: 42, officeId: 7, tokenVersion: 3 }), tokens.issue({ userId: 42, officeId: 7, tokenVersion: 3 })].map(
    ({ accessToken }) => tokens.verify(accessToken)?.sessionId,
  );
  assert.match(sessions[0] ?? '', /^[A-Za-z0-9_-]{22}$/);
  assert.notEqual(sessions[0], sessions[1]);
});

test('a validly signed token without a session (issued before sessions were) is refused', () => {
  const payload = Buffer.from(JSON.stringify({ u: 42, o: 7, v: 3, e: Math.floor(Date.now() / 1000) + 60 })).toString('base64url');
  const signature = createHmac('sha256', 'a-test-secret-that-is-long-enough-123').update(payload).digest('base64url');
  assert.equal(tokens.verify(`${payload}.${signature}`), undefined);
});

test('a tampered, foreign or malformed token is refused', () => {
  const { accessToken } = tokens.issue({ userId: 42, officeId: 7, tokenVersion: 3 });
  const [payload, signature] = accessToken.split('.');
  const otherPayload = Buffer.from(JSON.stringify({ u: 1, o: 7, v: 3, e: 9_999_999_999 })).toString('base64url');
  assert.equal(tokens.verify(`${otherPayload}.${signature}`), undefined);
  assert.equal(tokens.verify(`${payload}.${signature.slice(0, -2)}`), undefined);
  assert.equal(new AccessTokens('another-secret-that-is-long-enough-456', 3600).verify(accessToken), undefined);
  for (const garbage of ['', '.', 'abc', 'a.b.c', `${payload}.`, '.signature']) assert.equal(tokens.verify(garbage), undefined);
});

test('a token verified before is still refused once expired, and its payload under another signature is not taken for it', () => {
  const now = Date.UTC(2026, 0, 1);
  const { accessToken } = tokens.issue({ userId: 42, officeId: 7, tokenVersion: 3 }, now);
  const [payload, signature] = accessToken.split('.');
  assert.equal(tokens.verify(accessToken, now)?.userId, 42);
  assert.equal(tokens.verify(`${payload}.${signature.slice(0, -2)}AA`, now), undefined);
  assert.equal(tokens.verify(accessToken, now + 3600_000), undefined);
  assert.equal(tokens.verify(accessToken, now - 1800_000), undefined, 'seen from a clock half an hour behind, it lives longer than the TTL');
});

test('passwords verify only against their own hash', async () => {
  const hash = await hashPassword('letterbox-demo');
  assert.match(hash, /^\$argon2id\$/);
  assert.equal(await verifyPassword(hash, 'letterbox-demo'), true);
  assert.equal(await verifyPassword(hash, 'letterbox-dem0'), false);
  assert.equal(await verifyPassword('not a hash', 'letterbox-demo'), false);
});

test('a validly signed token that lives longer than the TTL is refused', () => {
  const now = Date.UTC(2026, 0, 1);
  const longLived = new AccessTokens('a-test-secret-that-is-long-enough-123', 10 * 365 * 24 * 3600);
  const { accessToken } = longLived.issue({ userId: 42, officeId: 7, tokenVersion: 3 }, now);
  assert.equal(tokens.verify(accessToken, now), undefined);
  assert.equal(tokens.verify(accessToken, now + 10 * 365 * 24 * 3600_000 - 1800_000)?.userId, 42);
});

test('a flood of password checks leaves the thread pool to file reads', async () => {
  const hash = await hashPassword('letterbox-demo');
  const finished: string[] = [];
  const checks = Array.from({ length: 8 }, () => verifyPassword(hash, 'wrong').then(() => finished.push('password')));
  const read = readFile(__filename).then(() => finished.push('file'));
  await Promise.all([...checks, read]);
  // One check at a time holds a pool thread, so the read waits at most for the check already running.
  assert.ok(finished.indexOf('file') <= 1, `order: ${finished.join(', ')}`);
});
