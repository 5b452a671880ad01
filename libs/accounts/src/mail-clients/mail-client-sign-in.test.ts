import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { AuditLog } from '@letterbox/audit';
import { KnownClientAddresses, FailedAttemptLimiter } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { redisConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, testDatabase, testSettings, unlinkKeys, type TestUser } from '@letterbox/testing';
import { AccountDisabledError, AccountSetupRequiredError, WrongCredentialsError } from '../account-errors';
import { changePassword } from '../accounts';
import { AppPasswords } from '../app-passwords/app-passwords';
import { AppPasswordStore } from '../app-passwords/app-password-store';
import { SecurityEvents } from '../security-events';
import { mailClientSignIn, type SignInMailClient } from './mail-client-sign-in';

describe('signInMailClient', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const clientAddress = '192.0.2.7';
  let db: Database;
  let redis: RedisConnection;
  let signIn: SignInMailClient;
  let appPasswords: AppPasswords;

  before(() => {
    db = testDatabase();
    redis = redisConnection(testSettings(), 'fail-fast', 'test sign-in limits');
    const events = new SecurityEvents(new AuditLog(db.sql));
    const store = new AppPasswordStore(db.sql);
    appPasswords = new AppPasswords(db, store, events);
    signIn = mailClientSignIn({
      db,
      passwordAttempts: new FailedAttemptLimiter(redis, prefix, { perAccount: 10, perClient: 100, windowSeconds: 60 }),
      knownClients: new KnownClientAddresses(redis, prefix),
      appPasswords: store,
      events,
    });
  });

  after(async () => {
    await unlinkKeys(redis, `${prefix}:*`);
    redis.disconnect();
    await db.close();
  });

  const current = (user: TestUser) => ({ userId: user.id, officeId: user.officeId, tokenVersion: 0, sessionId: 'test', tokenExpiresAt: 0 });
  const imap = (address: string, password: string) => signIn({ address, password, clientAddress, protocol: 'imap' });

  test('by an alias, in any case, with the password or an app password typed without its spaces', async () => {
    const user = await createTestUser(db, 'mail-client');
    const alias = `nick@${user.domain}`;
    await db.sql.query("INSERT INTO addresses (address, office_id, kind, user_id) VALUES ($1, $2, 'alias', $3)", [alias, user.officeId, user.id]);
    const expected = { id: user.id, officeId: user.officeId, email: user.email };
    assert.deepEqual(await imap(alias.toUpperCase(), user.password), expected);
    const { password } = await appPasswords.create(current(user), 'Phone', clientAddress);
    assert.deepEqual(await imap(user.email, password.replaceAll(' ', '').toUpperCase()), expected);
    const events = await db.prisma.auditEvent.findMany({ where: { actorUserId: user.id, action: 'auth.sign-in' }, orderBy: { id: 'asc' } });
    assert.deepEqual(
      events.map((event) => (event.details as { protocol: string }).protocol),
      ['imap', 'imap'],
    );
  });

  test('an unknown address is a wrong password, audited under the address', async () => {
    const address = `nobody-${randomUUID().slice(0, 8)}@nowhere.test`;
    await assert.rejects(imap(address, 'anything'), WrongCredentialsError);
    const [event] = await db.prisma.auditEvent.findMany({ where: { target: address, action: 'auth.sign-in.failed' } });
    assert.deepEqual(event.details, { protocol: 'imap', reason: 'wrong password' });
    await assert.rejects(imap(`nul\u0000${address}`, 'anything'), WrongCredentialsError, 'a NUL, as AUTH LOGIN may send one, is no failure of the server');
  });

  test('a revoked app password, and every one after a new password, no longer signs in', async () => {
    const user = await createTestUser(db, 'revoked');
    const first = await appPasswords.create(current(user), 'Laptop', clientAddress);
    const second = await appPasswords.create(current(user), 'Tablet', clientAddress);
    await appPasswords.revoke(current(user), first.id, clientAddress);
    await assert.rejects(imap(user.email, first.password), WrongCredentialsError);
    await imap(user.email, second.password);
    await changePassword(db, { announce: async () => undefined }, user.id, 'a new password of the user');
    await assert.rejects(imap(user.email, second.password), WrongCredentialsError);
    assert.deepEqual(await appPasswords.list(current(user)), []);
  });

  test('a disabled account, or one that must first set up two-factor sign-in, is refused with the right password', async () => {
    const disabled = await createTestUser(db, 'disabled');
    await db.sql.query("UPDATE users SET state = 'disabled' WHERE id = $1", [disabled.id]);
    await assert.rejects(imap(disabled.email, disabled.password), AccountDisabledError);
    const unset = await createTestUser(db, 'no-totp-yet');
    await db.sql.query('UPDATE offices SET require_totp = true WHERE id = $1', [unset.officeId]);
    await assert.rejects(imap(unset.email, unset.password), AccountSetupRequiredError);
  });
});
