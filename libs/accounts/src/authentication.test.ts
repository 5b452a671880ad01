import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { generate } from 'otplib';
import { AuditLog } from '@letterbox/audit';
import { AccessTokens, FailedAttemptLimiter, KnownClientAddresses, TimeBasedCodes, TokenAuthenticator, type AuthenticatedUser } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { redisConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, testDatabase, testSettings, unlinkKeys, type TestUser } from '@letterbox/testing';
import {
  AccountDisabledError,
  TooManyWrongPasswordsError,
  TotpInvalidError,
  TotpRequiredError,
  UserGoneError,
  WrongCredentialsError,
  WrongCurrentPasswordError,
} from './account-errors';
import { removeUser } from './accounts';
import { Authentication } from './authentication';
import { CachedUserSessions } from './cached-user-sessions';
import { SecurityEvents } from './security-events';
import { SecondFactorCheck } from './two-factor/second-factor';
import { TwoFactorSetup } from './two-factor/two-factor-setup';
import { TwoFactorStore } from './two-factor/two-factor-store';

const LIMITS = { perAccount: 3, perClient: 5, windowSeconds: 60 };

describe('Authentication', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const tokens = new AccessTokens('a test secret of enough length to sign with', 3600);
  /** An address of its own for each use: the limits count per address too. */
  const address = () => `10.${randomUUID().slice(0, 8)}`;
  let db: Database;
  let commands: RedisConnection;
  let subscriber: RedisConnection;
  let sessions: CachedUserSessions;
  let authentication: Authentication;
  let twoFactor: TwoFactorSetup;
  let authenticator: TokenAuthenticator;

  before(() => {
    db = testDatabase();
    commands = redisConnection(testSettings(), 'fail-fast', 'test sessions and sign-in limits');
    subscriber = redisConnection(testSettings(), 'subscriber', 'test revocations subscriber');
    sessions = new CachedUserSessions(db.sql, commands, subscriber, `${prefix}:session-revocations`, { ttlMs: 60_000, maxEntries: 100 });
    authenticator = new TokenAuthenticator(tokens, sessions);
    const store = new TwoFactorStore(db.sql);
    const codes = new TimeBasedCodes(commands, prefix, 'Letterbox test');
    const passwordAttempts = new FailedAttemptLimiter(commands, prefix, LIMITS);
    const codeAttempts = new FailedAttemptLimiter(commands, `${prefix}:totp`, LIMITS);
    const events = new SecurityEvents(new AuditLog(db.sql));
    authentication = new Authentication({
      db,
      tokens,
      passwordAttempts,
      knownClients: new KnownClientAddresses(commands, prefix),
      secondFactor: new SecondFactorCheck(store, codes, codeAttempts),
      sessions,
      events,
      defaultQuotaBytes: 5_000_000,
    });
    twoFactor = new TwoFactorSetup({ db, store, codes, passwordAttempts, codeAttempts, sessions, events });
  });

  after(async () => {
    await unlinkKeys(commands, `${prefix}:*`);
    commands.disconnect();
    subscriber.disconnect();
    await db.close();
  });

  /** Whether the token still stands, as the guard decides: its signature, then the user's and the session's current state. */
  async function stands(accessToken: string): Promise<boolean> {
    return authenticator.authenticate(accessToken).then(
      () => true,
      () => false,
    );
  }

  const signIn = (email: string, password: string, clientAddress: string, totp?: string) =>
    authentication.signIn({ email, password, ...(totp && { totp }) }, clientAddress);

  async function wrongPasswords(user: TestUser, count: number, from = address): Promise<void> {
    for (let attempt = 0; attempt < count; attempt++) {
      await assert.rejects(signIn(user.email, 'not the password', from()), WrongCredentialsError);
    }
  }

  async function signedInUser(user: TestUser): Promise<AuthenticatedUser> {
    return authenticator.authenticate((await signIn(user.email, user.password, address())).accessToken);
  }

  /** Turns TOTP on for the user; answers its secret and recovery codes. */
  async function withTotp(user: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
    const current = await signedInUser(user);
    const { secret, otpauthUrl } = await twoFactor.start(current);
    assert.match(otpauthUrl, new RegExp(`^otpauth://totp/.*secret=${secret}`));
    // The code of the step before: the one of now stays unused, for the sign-in that follows.
    const { recoveryCodes } = await twoFactor.confirm(current, await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 }), address());
    return { secret, recoveryCodes };
  }

  async function actions(userId: number): Promise<string[]> {
    const { rows } = await db.sql.query<{ action: string }>('SELECT action FROM audit_events WHERE target = $1 ORDER BY id', [`user:${userId}`]);
    return rows.map((row) => row.action);
  }

  test('the right password signs in, whatever the email’s case: a token that stands, and whose it is', async () => {
    const user = await createTestUser(db, 'alice');
    const signedIn = await signIn(user.email.toUpperCase(), user.password, address());
    assert.equal(signedIn.tokenType, 'Bearer');
    assert.deepEqual(signedIn.user, { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName, role: 'user' });
    assert.equal(signedIn.passwordChangeRequired, false);
    assert.equal(signedIn.totpSetupRequired, false);
    assert.ok(await stands(signedIn.accessToken));
    assert.deepEqual(await authentication.profile(user.id), {
      ...signedIn.user,
      locale: null,
      passwordChangeRequired: false,
      totpEnabled: false,
      totpSetupRequired: false,
      addresses: [user.email],
      usage: { usedBytes: 0, quotaBytes: 5_000_000 },
    });
  });

  test('a wrong password and an unknown email are refused alike', async () => {
    const user = await createTestUser(db, 'bob');
    await assert.rejects(signIn(user.email, 'not the password', address()), WrongCredentialsError);
    await assert.rejects(signIn(`nobody@${user.domain}`, user.password, address()), WrongCredentialsError);
  });

  test('past the wrong passwords an account allows, even the right one is refused, from any address, for a while', async () => {
    const user = await createTestUser(db, 'carol');
    await wrongPasswords(user, LIMITS.perAccount);
    const refused = await signIn(user.email, user.password, address()).catch((error: unknown) => error);
    assert.ok(refused instanceof TooManyWrongPasswordsError);
    assert.ok(refused.retryAfterSeconds > 0 && refused.retryAfterSeconds <= LIMITS.windowSeconds);
  });

  test('the right password before the limit starts the account’s count again', async () => {
    const user = await createTestUser(db, 'dave');
    await wrongPasswords(user, LIMITS.perAccount - 1);
    await signIn(user.email, user.password, address());
    await wrongPasswords(user, LIMITS.perAccount - 1);
    assert.ok(await signIn(user.email, user.password, address()));
  });

  test('past the wrong passwords an address allows, it may try no account, known or not; other addresses may', async () => {
    const user = await createTestUser(db, 'erin');
    const guesser = address();
    for (let attempt = 0; attempt < LIMITS.perClient; attempt++) {
      await assert.rejects(signIn(`guess${attempt}@${user.domain}`, 'a guess', guesser), WrongCredentialsError);
    }
    await assert.rejects(signIn(user.email, user.password, guesser), TooManyWrongPasswordsError);
    await assert.rejects(signIn(`unknown@${user.domain}`, 'a guess', guesser), TooManyWrongPasswordsError);
    assert.ok(await signIn(user.email, user.password, address()));
  });

  test('signing out ends this session only; signing out everywhere ends every token of the user issued so far', async () => {
    const user = await createTestUser(db, 'frank');
    const [phone, laptop, tablet] = [
      await signIn(user.email, user.password, address()),
      await signIn(user.email, user.password, address()),
      await signIn(user.email, user.password, address()),
    ];
    await authentication.signOut(await authenticator.authenticate(phone.accessToken), '10.0.0.1');
    assert.equal(await stands(phone.accessToken), false);
    assert.equal(await stands(laptop.accessToken), true);
    await authentication.signOutEverywhere(await authenticator.authenticate(laptop.accessToken), '10.0.0.1');
    assert.equal(await stands(laptop.accessToken), false);
    assert.equal(await stands(tablet.accessToken), false);
    assert.ok(await stands((await signIn(user.email, user.password, address())).accessToken));
    assert.deepEqual((await actions(user.id)).slice(3, 6), ['auth.sign-out', 'auth.sign-out', 'auth.token-revocation']);
  });

  test('a new password ends the earlier tokens and the old password; the answer carries a token that stands', async () => {
    const user = await createTestUser(db, 'grace');
    const before = await signIn(user.email, user.password, address());
    const other = await signIn(user.email, user.password, address());
    const current = await authenticator.authenticate(before.accessToken);
    const changed = await authentication.changePassword(current, user.password, 'a new password, long enough', address());
    assert.equal(await stands(before.accessToken), false);
    assert.equal(await stands(other.accessToken), false);
    assert.ok(await stands(changed.accessToken));
    assert.equal((await authenticator.authenticate(changed.accessToken)).sessionId, current.sessionId, 'the same session goes on');
    await assert.rejects(signIn(user.email, user.password, address()), WrongCredentialsError);
    assert.ok(await signIn(user.email, 'a new password, long enough', address()));
  });

  test('a wrong current password changes nothing, and counts as a wrong password', async () => {
    const user = await createTestUser(db, 'heidi');
    const before = await signIn(user.email, user.password, address());
    const current = await authenticator.authenticate(before.accessToken);
    for (let attempt = 0; attempt < LIMITS.perAccount; attempt++) {
      await assert.rejects(authentication.changePassword(current, 'not the password', 'a new password', address()), WrongCurrentPasswordError);
    }
    assert.ok(await stands(before.accessToken));
    await assert.rejects(authentication.changePassword(current, user.password, 'a new password', address()), TooManyWrongPasswordsError);
  });

  test('a removed user, whose token was still valid, is gone', async () => {
    const user = await createTestUser(db, 'ivan');
    const current = await signedInUser(user);
    await removeUser(db, sessions, user.id);
    await assert.rejects(authentication.profile(user.id), UserGoneError);
    await assert.rejects(authentication.changePassword(current, user.password, 'a new password', address()), UserGoneError);
  });

  test('an account locked by wrong passwords lets the right one in from an address that signed in before, and from no other', async () => {
    const user = await createTestUser(db, 'judy');
    const home = address();
    await signIn(user.email, user.password, home);
    await wrongPasswords(user, LIMITS.perAccount);
    await assert.rejects(signIn(user.email, user.password, address()), TooManyWrongPasswordsError);
    await assert.rejects(signIn(user.email, 'not the password', home), TooManyWrongPasswordsError);
    assert.ok(await stands((await signIn(user.email, user.password, home)).accessToken));
    await assert.rejects(signIn(user.email, user.password, address()), TooManyWrongPasswordsError, 'the lock stays for others');
    assert.ok((await actions(user.id)).includes('auth.lockout'));
  });

  test('with TOTP on, the code is needed: missing and wrong codes are told apart; a code works once; a recovery code once', async () => {
    const user = await createTestUser(db, 'kate');
    const { secret, recoveryCodes } = await withTotp(user);
    assert.equal(recoveryCodes.length, 10);
    assert.equal(new Set(recoveryCodes).size, 10);
    await assert.rejects(signIn(user.email, user.password, address()), TotpRequiredError);
    await assert.rejects(signIn(user.email, user.password, address(), '000000'), TotpInvalidError);
    await assert.rejects(signIn(user.email, 'not the password', address(), await generate({ secret })), WrongCredentialsError);
    const code = await generate({ secret });
    assert.ok(await stands((await signIn(user.email, user.password, address(), code)).accessToken));
    await assert.rejects(signIn(user.email, user.password, address(), code), TotpInvalidError, 'a code is used once');
    assert.ok(await stands((await signIn(user.email, user.password, address(), recoveryCodes[0].toUpperCase())).accessToken));
    await assert.rejects(signIn(user.email, user.password, address(), recoveryCodes[0]), TotpInvalidError, 'a recovery code is used once');
    const recorded = await actions(user.id);
    for (const action of ['auth.totp.enable', 'auth.recovery-code.use', 'auth.sign-in.failed']) assert.ok(recorded.includes(action), action);
  });

  test('wrong codes are limited like wrong passwords, apart from them', async () => {
    const user = await createTestUser(db, 'liam');
    const { secret } = await withTotp(user);
    for (let attempt = 0; attempt < LIMITS.perAccount; attempt++) {
      await assert.rejects(signIn(user.email, user.password, address(), `99999${attempt}`), TotpInvalidError);
    }
    await assert.rejects(signIn(user.email, user.password, address(), await generate({ secret })), TooManyWrongPasswordsError);
  });

  test('an account with TOTP locked by wrong passwords lets the right password and code in, from anywhere; the code alone does not', async () => {
    const user = await createTestUser(db, 'mona');
    const { secret } = await withTotp(user);
    await wrongPasswords(user, LIMITS.perAccount);
    await assert.rejects(signIn(user.email, 'not the password', address()), TotpRequiredError, 'asked for the code, whatever the password');
    await assert.rejects(signIn(user.email, 'not the password', address(), await generate({ secret })), TooManyWrongPasswordsError);
    await assert.rejects(signIn(user.email, user.password, address(), '123456'), TooManyWrongPasswordsError, 'a wrong code says nothing of the password');
    assert.ok(await stands((await signIn(user.email, user.password, address(), await generate({ secret }))).accessToken));
  });

  test('turning TOTP off takes the password, and signing in needs no code afterwards', async () => {
    const user = await createTestUser(db, 'nick');
    await withTotp(user);
    const current = await authenticator.authenticate((await signIn(user.email, user.password, address(), await currentCode(user))).accessToken);
    await assert.rejects(twoFactor.disable(current, 'not the password', address()), WrongCurrentPasswordError);
    await twoFactor.disable(current, user.password, address());
    assert.ok(await signIn(user.email, user.password, address()));
    assert.equal(await db.prisma.totpRecoveryCode.count({ where: { userId: user.id } }), 0);
  });

  test('a disabled account cannot sign in, told apart once the password is right; its tokens stop', async () => {
    const user = await createTestUser(db, 'olga');
    const before = await signIn(user.email, user.password, address());
    await db.sql.query(`UPDATE users SET state = 'disabled' WHERE id = $1`, [user.id]);
    await sessions.revoke(user.id);
    assert.equal(await stands(before.accessToken), false);
    await assert.rejects(signIn(user.email, user.password, address()), AccountDisabledError);
    await assert.rejects(signIn(user.email, 'not the password', address()), WrongCredentialsError);
  });

  /** The code the user's authenticator shows now. */
  async function currentCode(user: TestUser): Promise<string> {
    const { rows } = await db.sql.query<{ totp_secret: string }>('SELECT totp_secret FROM users WHERE id = $1', [user.id]);
    return generate({ secret: rows[0].totp_secret });
  }
});
