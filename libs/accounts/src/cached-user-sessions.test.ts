import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { redisConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, redisTargets, testDatabase, waitFor } from '@letterbox/testing';
import type { SessionChange } from '@letterbox/auth';
import { removeUser } from './accounts';
import { CachedUserSessions, type SessionCacheOptions } from './cached-user-sessions';

const REMEMBER_LONG: SessionCacheOptions = { ttlMs: 10 * 60_000, maxEntries: 100 };

for (const { name, target } of redisTargets()) {
  describe(`CachedUserSessions, announcing over ${name}`, () => {
    const channel = `test-${randomUUID().slice(0, 8)}:session-revocations`;
    const connections: RedisConnection[] = [];
    let db: Database;

    before(() => {
      db = testDatabase();
    });

    after(async () => {
      for (const connection of connections) connection.disconnect();
      await db.close();
    });

    /** The sessions of one API process, with its own connections, as the app builds them. */
    function processSessions(options = REMEMBER_LONG): { sessions: CachedUserSessions; publisher: RedisConnection; subscriber: RedisConnection } {
      const publisher = redisConnection(target, 'fail-fast', 'test sessions');
      const subscriber = redisConnection(target, 'subscriber', 'test revocations subscriber');
      connections.push(publisher, subscriber);
      return { sessions: new CachedUserSessions(db.sql, publisher, subscriber, channel, options), publisher, subscriber };
    }

    async function tokenVersionOf(userId: number): Promise<number> {
      const { rows } = await db.sql.query<{ token_version: number }>('SELECT token_version FROM users WHERE id = $1', [userId]);
      return rows[0].token_version;
    }

    /** A change of the user's token version that nobody announces: only a process asking the database sees it. */
    async function changedUnannounced(userId: number): Promise<number> {
      await db.sql.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [userId]);
      return tokenVersionOf(userId);
    }

    /**
     * Waits until the process remembers the user's state, which it does only once it listens for revocations:
     * then a change nobody announced goes unseen. Leaves the database one version ahead of what it remembers.
     */
    async function remembering(sessions: CachedUserSessions, userId: number): Promise<number> {
      return waitFor(
        async () => {
          const remembered = (await sessions.stateOf(userId))?.tokenVersion;
          await changedUnannounced(userId);
          return (await sessions.stateOf(userId))?.tokenVersion === remembered && remembered;
        },
        { what: `the process to remember user ${userId}` },
      );
    }

    test('a user’s state is read once and then remembered: a change nobody announced goes unseen', async () => {
      const { sessions } = processSessions();
      const user = await createTestUser(db, 'erin');
      const remembered = await remembering(sessions, user.id);
      assert.deepEqual(await sessions.stateOf(user.id), { officeId: user.officeId, tokenVersion: remembered, active: true });
      assert.notEqual(await tokenVersionOf(user.id), remembered);
    });

    test('a revocation ends the memory at once in its own process, and in every process listening; other users stay remembered', async () => {
      const here = processSessions().sessions;
      const there = processSessions().sessions;
      const alice = await createTestUser(db, 'alice');
      const bob = await createTestUser(db, 'bob');
      await remembering(here, alice.id);
      await remembering(there, alice.id);
      const bobRemembered = await remembering(there, bob.id);
      await here.revoke(alice.id);
      const revoked = await tokenVersionOf(alice.id);
      assert.equal((await here.stateOf(alice.id))?.tokenVersion, revoked);
      await waitFor(async () => (await there.stateOf(alice.id))?.tokenVersion === revoked, { what: 'the other process to hear of the revocation' });
      assert.equal((await there.stateOf(bob.id))?.tokenVersion, bobRemembered);
    });

    test('a session ended in one process is ended in every process, told to their listeners; other sessions stand', async () => {
      const here = processSessions().sessions;
      const there = processSessions().sessions;
      const user = await createTestUser(db, 'hana');
      await remembering(there, user.id);
      const [phone, laptop] = [`phone-${randomUUID()}`, `laptop-${randomUUID()}`];
      assert.equal(await there.sessionEnded(phone), false);
      const heard: SessionChange[] = [];
      there.onChange((change) => heard.push(change));
      await here.endSession(user.id, phone, 60);
      assert.equal(await here.sessionEnded(phone), true);
      await waitFor(async () => (await there.sessionEnded(phone)) && heard.some((change) => change.sessionId === phone), {
        what: 'the other process to hear of the sign-out',
      });
      assert.deepEqual(heard, [{ userId: user.id, sessionId: phone }]);
      assert.equal(await there.sessionEnded(laptop), false);
      const later = processSessions();
      await waitFor(async () => later.publisher.status === 'ready', { what: 'the new process to connect' });
      assert.equal(await later.sessions.sessionEnded(phone), true, 'a process started afterwards asks Redis');
    });

    test('a disabled user, or one who must change their password or set up TOTP, is told so by the state', async () => {
      const { sessions } = processSessions();
      const user = await createTestUser(db, 'ines');
      await db.sql.query('UPDATE offices SET require_totp = true WHERE id = $1', [user.officeId]);
      await sessions.announce(user.id);
      assert.equal((await sessions.stateOf(user.id))?.setupRequired, 'totp-setup');
      await db.sql.query(`UPDATE users SET password_change_required = true, state = 'disabled' WHERE id = $1`, [user.id]);
      await sessions.announce(user.id);
      assert.deepEqual(await sessions.stateOf(user.id), {
        officeId: user.officeId,
        tokenVersion: await tokenVersionOf(user.id),
        active: false,
        setupRequired: 'password-change',
      });
    });

    test('a removed user has no state, in any process', async () => {
      const here = processSessions().sessions;
      const there = processSessions().sessions;
      const dave = await createTestUser(db, 'dave');
      await remembering(here, dave.id);
      await remembering(there, dave.id);
      assert.equal(await removeUser(db, here, dave.id), true);
      assert.equal(await here.stateOf(dave.id), undefined);
      await waitFor(async () => (await there.stateOf(dave.id)) === undefined, { what: 'the other process to hear of the removal' });
    });

    test('a process that cannot listen for revocations asks the database on every request', async () => {
      const { sessions, subscriber } = processSessions();
      subscriber.disconnect();
      const user = await createTestUser(db, 'frank');
      for (let change = 0; change < 3; change++) {
        const current = await changedUnannounced(user.id);
        assert.equal((await sessions.stateOf(user.id))?.tokenVersion, current);
      }
    });

    test('after its connection to the channel is lost and made again, nothing remembered from before is trusted', async () => {
      const { sessions, subscriber } = processSessions();
      const user = await createTestUser(db, 'grace');
      await remembering(sessions, user.id);
      // What was announced while it was away is lost: this change stands for it.
      const missed = await changedUnannounced(user.id);
      subscriber.disconnect(true);
      await waitFor(async () => (await sessions.stateOf(user.id))?.tokenVersion === missed, { what: 'the process to forget what it remembered' });
    });

    test('at most maxEntries users are remembered; the one remembered first is forgotten first', async () => {
      const { sessions } = processSessions({ ...REMEMBER_LONG, maxEntries: 2 });
      const [first, second, third] = await Promise.all(['ivy', 'jack', 'kim'].map((name) => createTestUser(db, name)));
      await remembering(sessions, first.id);
      const secondRemembered = await remembering(sessions, second.id);
      await sessions.stateOf(third.id);
      assert.equal((await sessions.stateOf(second.id))?.tokenVersion, secondRemembered);
      assert.equal((await sessions.stateOf(first.id))?.tokenVersion, await tokenVersionOf(first.id));
    });

    test('a revocation that cannot be announced still stands, and its own process forgets at once', async () => {
      const { sessions, publisher } = processSessions();
      const user = await createTestUser(db, 'lee');
      await remembering(sessions, user.id);
      publisher.disconnect();
      await sessions.revoke(user.id);
      assert.equal((await sessions.stateOf(user.id))?.tokenVersion, await tokenVersionOf(user.id));
    });
  });
}
