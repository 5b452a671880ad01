import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { testBlobStore, testDatabase } from '@letterbox/testing';
import { AddressTakenError, DomainNotOwnedError, LastAdminError, UserNotFoundError } from '../admin-errors';
import { adminFixture, auditActions, TEST_DEFAULT_QUOTA } from '../testing/admin-fixture';

describe('admin: the users of an office', () => {
  let db: Database;

  before(() => {
    db = testDatabase();
  });

  after(async () => {
    await db.close();
  });

  test('a user is added with an initial password to change, the default quota and an audit record; listed and found by part of the name', async () => {
    const admin = await adminFixture(db);
    const added = await admin.addUser.add(admin.act, { email: `Mia@${admin.domain.toUpperCase()}`, displayName: 'Mia Wong', password: 'initial password' });
    assert.deepEqual(
      { ...added, id: 0, createdAt: '' },
      {
        id: 0,
        email: `mia@${admin.domain}`,
        displayName: 'Mia Wong',
        role: 'user',
        state: 'active',
        quotaBytes: TEST_DEFAULT_QUOTA,
        customQuota: false,
        usedBytes: 0,
        aliases: [],
        totpEnabled: false,
        passwordChangeRequired: true,
        createdAt: '',
      },
    );
    await admin.addUser.add(admin.act, {
      email: `zoe@${admin.domain}`,
      displayName: 'Zoe Park',
      password: 'initial password',
      role: 'admin',
      quotaBytes: 1000,
    });
    const page = await admin.users.list(admin.office.id, { limit: 1 });
    assert.deepEqual(
      page.users.map((user) => user.email),
      [`mia@${admin.domain}`],
    );
    const next = await admin.users.list(admin.office.id, { limit: 1, cursor: page.nextCursor ?? undefined });
    assert.deepEqual(
      next.users.map(({ email, role, quotaBytes, customQuota }) => ({ email, role, quotaBytes, customQuota })),
      [{ email: `zoe@${admin.domain}`, role: 'admin', quotaBytes: 1000, customQuota: true }],
    );
    assert.equal(next.nextCursor, null);
    assert.deepEqual(
      (await admin.users.list(admin.office.id, { limit: 10, q: 'PARK' })).users.map((user) => user.displayName),
      ['Zoe Park'],
    );
    assert.deepEqual(await auditActions(db, admin.office.id), ['office.create', 'user.create', 'user.create']);
  });

  test('an address that exists (a user’s or an alias) is refused, and one outside the office’s domains', async () => {
    const admin = await adminFixture(db);
    const mia = await admin.addUser.add(admin.act, { email: `mia@${admin.domain}`, displayName: 'Mia', password: 'initial password' });
    await admin.aliases.add(admin.act, mia.id, `sales@${admin.domain}`);
    for (const email of [`MIA@${admin.domain}`, `sales@${admin.domain}`]) {
      await assert.rejects(admin.addUser.add(admin.act, { email, displayName: 'Again', password: 'initial password' }), AddressTakenError);
    }
    await assert.rejects(
      admin.addUser.add(admin.act, { email: 'someone@elsewhere.test', displayName: 'Out', password: 'initial password' }),
      DomainNotOwnedError,
    );
    const other = await adminFixture(db);
    await assert.rejects(
      admin.addUser.add(admin.act, { email: `x@${other.domain}`, displayName: 'Other office', password: 'initial password' }),
      DomainNotOwnedError,
    );
  });

  test('disabling, a password reset and a demotion end the user’s tokens; a name or quota change does not', async () => {
    const admin = await adminFixture(db);
    // Another administrator: Mia's demotion does not leave the office without one.
    await admin.addUser.add(admin.act, { email: `first@${admin.domain}`, displayName: 'First', password: 'initial password', role: 'admin' });
    const mia = await admin.addUser.add(admin.act, { email: `mia@${admin.domain}`, displayName: 'Mia', password: 'initial password', role: 'admin' });
    const tokenVersion = async () => (await db.sql.query('SELECT token_version FROM users WHERE id = $1', [mia.id])).rows[0].token_version as number;
    await db.sql.query('UPDATE users SET password_change_required = false WHERE id = $1', [mia.id]);
    const renamed = await admin.changeUser.change(admin.act, mia.id, { displayName: 'Mia W.', quotaBytes: 5000 });
    assert.deepEqual([renamed.displayName, renamed.quotaBytes, await tokenVersion()], ['Mia W.', 5000, 0]);
    assert.equal((await admin.changeUser.change(admin.act, mia.id, { quotaBytes: null })).quotaBytes, TEST_DEFAULT_QUOTA);
    await admin.changeUser.change(admin.act, mia.id, { role: 'user' });
    await admin.changeUser.change(admin.act, mia.id, { state: 'disabled' });
    const reset = await admin.changeUser.change(admin.act, mia.id, { password: 'another initial' });
    assert.equal(reset.passwordChangeRequired, true);
    assert.equal(await tokenVersion(), 3);
    assert.deepEqual(admin.sessions.announced, [mia.id, mia.id, mia.id]);
    assert.equal((await admin.changeUser.change(admin.act, mia.id, { state: 'active' })).state, 'active');
    assert.deepEqual((await auditActions(db, admin.office.id)).slice(3), [
      'user.update',
      'user.update',
      'user.update',
      'user.disable',
      'user.password-reset',
      'user.enable',
    ]);
  });

  test('the last active administrator is not demoted, disabled or removed; another may be', async () => {
    const admin = await adminFixture(db);
    const first = await admin.addUser.add(admin.act, { email: `first@${admin.domain}`, displayName: 'First', password: 'initial password', role: 'admin' });
    const second = await admin.addUser.add(admin.act, { email: `second@${admin.domain}`, displayName: 'Second', password: 'initial password', role: 'admin' });
    await admin.changeUser.change(admin.act, second.id, { state: 'disabled' });
    await assert.rejects(admin.changeUser.change(admin.act, first.id, { role: 'user' }), LastAdminError);
    await assert.rejects(admin.changeUser.change(admin.act, first.id, { state: 'disabled' }), LastAdminError);
    await assert.rejects(admin.removeUser.remove(admin.act, first.id), LastAdminError);
    await admin.changeUser.change(admin.act, second.id, { state: 'active' });
    await Promise.allSettled([admin.changeUser.change(admin.act, first.id, { role: 'user' }), admin.changeUser.change(admin.act, second.id, { role: 'user' })]);
    const { rows } = await db.sql.query(`SELECT count(*)::int AS admins FROM users WHERE office_id = $1 AND role = 'admin'`, [admin.office.id]);
    assert.equal(rows[0].admins, 1, 'two admins demoting each other at once: one stays');
  });

  test('a removed user’s mail rows go with the account, their blobs left to the collector, their tokens ended; another office’s user is not found', async () => {
    const admin = await adminFixture(db);
    const mia = await admin.addUser.add(admin.act, { email: `mia@${admin.domain}`, displayName: 'Mia', password: 'initial password' });
    const { rows } = await db.sql.query<{ id: number }>(`SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'inbox'`, [mia.id]);
    const eml = Buffer.from(`From: a@x.test\r\nTo: ${mia.email}\r\nSubject: kept until removed ${Math.random()}\r\n\r\nbody\r\n`);
    const stored = await storeMail(db, testBlobStore(), { userId: mia.id, mailboxId: rows[0].id, eml });
    const references = new DatabaseBlobReferences(db.sql);
    assert.equal((await references.referenced([stored.storageKey])).size, 1);
    const other = await adminFixture(db);
    await assert.rejects(other.removeUser.remove(other.act, mia.id), UserNotFoundError);
    await admin.removeUser.remove(admin.act, mia.id);
    assert.equal((await db.sql.query('SELECT 1 FROM mails WHERE user_id = $1', [mia.id])).rowCount, 0);
    assert.equal((await db.sql.query('SELECT 1 FROM addresses WHERE user_id = $1', [mia.id])).rowCount, 0);
    assert.equal((await references.referenced([stored.storageKey])).size, 0, 'nothing refers to the blob: the collector removes it');
    assert.deepEqual(admin.sessions.announced, [mia.id]);
    await assert.rejects(admin.users.get(admin.office.id, mia.id), UserNotFoundError);
  });
});
