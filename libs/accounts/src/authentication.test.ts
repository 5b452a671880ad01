import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { AccessTokens, FailedAttemptLimiter } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { redisConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, testDatabase, testSettings, unlinkKeys, type TestUser } from '@letterbox/testing';
import { TooManyWrongPasswordsError, UserGoneError, WrongCredentialsError, WrongCurrentPasswordError } from './account-errors';
import { removeUser } from './accounts';
import { Authentication } from './authentication';
import { CachedUserSessions } from './cached-user-sessions';

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

  before(() => {
    db = testDatabase();
    commands = redisConnection(testSettings(), 'fail-fast', 'test sessions and sign-in limits');
    subscriber = redisConnection(testSettings(), 'subscriber', 'test revocations subscriber');
    sessions = new CachedUserSessions(db.sql, commands, subscriber, `${prefix}:session-revocations`, { ttlMs: 60_000, maxEntries: 100 });
    authentication = new Authentication(db, tokens, new FailedAttemptLimiter(commands, prefix, LIMITS), sessions);
  });

  after(async () => {
    await unlinkKeys(commands, `${prefix}:*`);
    commands.disconnect();
    subscriber.disconnect();
    await db.close();
  });

  /** Whether the token still stands, as the guard decides: its signature, then the user's current state. */
  async function stands(accessToken: string): Promise<boolean> {
    const claims = tokens.verify(accessToken);
    const state = claims && (await sessions.stateOf(claims.userId));
    return !!claims && !!state && state.officeId === claims.officeId && state.tokenVersion === claims.tokenVersion;
  }

  async function wrongPasswords(user: TestUser, count: number): Promise<void> {
    for (let attempt = 0; attempt < count; attempt++) {
      await assert.rejects(authentication.signIn(user.email, 'not the password', address()), WrongCredentialsError);
    }
  }

  test('the right password signs in, whatever the email’s case: a token that stands, and whose it is', async () => {
    const user = await createTestUser(db, 'alice');
    const signedIn = await authentication.signIn(user.email.toUpperCase(), user.password, address());
    assert.equal(signedIn.tokenType, 'Bearer');
    assert.deepEqual(signedIn.user, { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName });
    assert.ok(await stands(signedIn.accessToken));
    assert.deepEqual(await authentication.profile(user.id), signedIn.user);
  });

  test('a wrong password and an unknown email are refused alike', async () => {
    const user = await createTestUser(db, 'bob');
    await assert.rejects(authentication.signIn(user.email, 'not the password', address()), WrongCredentialsError);
    await assert.rejects(authentication.signIn(`nobody@${user.domain}`, user.password, address()), WrongCredentialsError);
  });

  test('past the wrong passwords an account allows, even the right one is refused, from any address, for a while', async () => {
    const user = await createTestUser(db, 'carol');
    await wrongPasswords(user, LIMITS.perAccount);
    const refused = await authentication.signIn(user.email, user.password, address()).catch((error: unknown) => error);
    assert.ok(refused instanceof TooManyWrongPasswordsError);
    assert.ok(refused.retryAfterSeconds > 0 && refused.retryAfterSeconds <= LIMITS.windowSeconds);
  });

  test('the right password before the limit starts the account’s count again', async () => {
    const user = await createTestUser(db, 'dave');
    await wrongPasswords(user, LIMITS.perAccount - 1);
    await authentication.signIn(user.email, user.password, address());
    await wrongPasswords(user, LIMITS.perAccount - 1);
    assert.ok(await authentication.signIn(user.email, user.password, address()));
  });

  test('past the wrong passwords an address allows, it may try no account, known or not; other addresses may', async () => {
    const user = await createTestUser(db, 'erin');
    const guesser = address();
    for (let attempt = 0; attempt < LIMITS.perClient; attempt++) {
      await assert.rejects(authentication.signIn(`guess${attempt}@${user.domain}`, 'a guess', guesser), WrongCredentialsError);
    }
    await assert.rejects(authentication.signIn(user.email, user.password, guesser), TooManyWrongPasswordsError);
    await assert.rejects(authentication.signIn(`unknown@${user.domain}`, 'a guess', guesser), TooManyWrongPasswordsError);
    assert.ok(await authentication.signIn(user.email, user.password, address()));
  });

  test('signing out ends every token of the user issued so far', async () => {
    const user = await createTestUser(db, 'frank');
    const [phone, laptop] = [
      await authentication.signIn(user.email, user.password, address()),
      await authentication.signIn(user.email, user.password, address()),
    ];
    await authentication.signOut(user.id);
    assert.equal(await stands(phone.accessToken), false);
    assert.equal(await stands(laptop.accessToken), false);
    assert.ok(await stands((await authentication.signIn(user.email, user.password, address())).accessToken));
  });

  test('a new password ends the earlier tokens and the old password; the answer carries a token that stands', async () => {
    const user = await createTestUser(db, 'grace');
    const before = await authentication.signIn(user.email, user.password, address());
    const changed = await authentication.changePassword(user.id, user.password, 'a new password, long enough', address());
    assert.equal(await stands(before.accessToken), false);
    assert.ok(await stands(changed.accessToken));
    await assert.rejects(authentication.signIn(user.email, user.password, address()), WrongCredentialsError);
    assert.ok(await authentication.signIn(user.email, 'a new password, long enough', address()));
  });

  test('a wrong current password changes nothing, and counts as a wrong password', async () => {
    const user = await createTestUser(db, 'heidi');
    const before = await authentication.signIn(user.email, user.password, address());
    for (let attempt = 0; attempt < LIMITS.perAccount; attempt++) {
      await assert.rejects(authentication.changePassword(user.id, 'not the password', 'a new password', address()), WrongCurrentPasswordError);
    }
    assert.ok(await stands(before.accessToken));
    await assert.rejects(authentication.changePassword(user.id, user.password, 'a new password', address()), TooManyWrongPasswordsError);
  });

  test('a removed user, whose token was still valid, is gone', async () => {
    const user = await createTestUser(db, 'ivan');
    await removeUser(db, sessions, user.id);
    await assert.rejects(authentication.profile(user.id), UserGoneError);
    await assert.rejects(authentication.changePassword(user.id, user.password, 'a new password', address()), UserGoneError);
  });
});
