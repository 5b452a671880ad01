import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { testDatabase } from '@letterbox/testing';
import { SYSTEM_MAILBOXES } from './account-rows';
import { changePassword, confirmPassword, createOffice, createUser, removeUser, type SessionAnnouncer } from './accounts';

/** Keeps whose sessions it was told to end, in order. */
class RecordingAnnouncer implements SessionAnnouncer {
  readonly announced: number[] = [];

  async announce(userId: number): Promise<void> {
    this.announced.push(userId);
  }
}

describe('accounts: offices, users, passwords', () => {
  let db: Database;

  before(() => {
    db = testDatabase();
  });

  after(async () => {
    await db.close();
  });

  /** A user in an office of its own, with a unique domain. */
  async function newUser(password = 'first password') {
    const domain = `${randomUUID().slice(0, 12)}.TEST`;
    const office = await createOffice(db, { name: 'Accounts test', domain });
    const user = await createUser(db, { officeId: office.id, email: `Mia.Wong@${domain}`, displayName: 'Mia Wong', password });
    return { office, domain, user };
  }

  async function tokenVersionOf(userId: number): Promise<number | undefined> {
    const { rows } = await db.sql.query<{ token_version: number }>('SELECT token_version FROM users WHERE id = $1', [userId]);
    return rows[0]?.token_version;
  }

  test('an office’s domain and a user’s email are kept in lower case; a user comes with every system mailbox', async () => {
    const { office, domain, user } = await newUser();
    assert.equal((await db.prisma.office.findUniqueOrThrow({ where: { id: office.id } })).domain, domain.toLowerCase());
    assert.equal(user.email, `mia.wong@${domain.toLowerCase()}`);
    assert.equal(user.officeId, office.id);
    const mailboxes = await db.prisma.mailbox.findMany({ where: { userId: user.id }, select: { id: true, role: true, name: true } });
    assert.deepEqual(
      mailboxes.map(({ role, name }) => ({ role, name })).sort((a, b) => a.role.localeCompare(b.role)),
      [...SYSTEM_MAILBOXES].sort((a, b) => a.role.localeCompare(b.role)),
    );
    for (const { id, role } of mailboxes) assert.equal(user.mailboxes[role], id);
  });

  test('an email already taken is refused', async () => {
    const { office, user } = await newUser();
    await assert.rejects(createUser(db, { officeId: office.id, email: user.email.toUpperCase(), displayName: 'Another', password: 'another password' }), {
      code: '23505',
    });
  });

  test('the password is kept hashed, and confirmed only as typed', async () => {
    const { user } = await newUser('first password');
    const { passwordHash } = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    assert.ok(!passwordHash.includes('first password'));
    assert.equal(await confirmPassword(db, user.id, 'first password'), true);
    assert.equal(await confirmPassword(db, user.id, 'First password'), false);
    assert.equal(await confirmPassword(db, -1, 'first password'), false);
  });

  test('a new password replaces the old one and ends the user’s tokens, announced to every process', async () => {
    const { user } = await newUser('first password');
    const sessions = new RecordingAnnouncer();
    const before = await tokenVersionOf(user.id);
    const changed = await changePassword(db, sessions, user.id, 'second password');
    assert.deepEqual(changed, { officeId: user.officeId, tokenVersion: (before ?? 0) + 1 });
    assert.equal(await tokenVersionOf(user.id), changed.tokenVersion);
    assert.deepEqual(sessions.announced, [user.id]);
    assert.equal(await confirmPassword(db, user.id, 'second password'), true);
    assert.equal(await confirmPassword(db, user.id, 'first password'), false);
  });

  test('the password of a user who does not exist is not changed, and nothing is announced', async () => {
    const sessions = new RecordingAnnouncer();
    await assert.rejects(changePassword(db, sessions, -1, 'a password'), /user -1 does not exist/);
    assert.deepEqual(sessions.announced, []);
  });

  test('a removed user goes with everything of theirs, announced to every process', async () => {
    const { user } = await newUser();
    const sessions = new RecordingAnnouncer();
    assert.equal(await removeUser(db, sessions, user.id), true);
    assert.deepEqual(sessions.announced, [user.id]);
    assert.equal(await tokenVersionOf(user.id), undefined);
    assert.equal(await db.prisma.mailbox.count({ where: { userId: user.id } }), 0);
    assert.equal(await removeUser(db, sessions, user.id), false);
  });
});
