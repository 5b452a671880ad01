import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOffice } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase } from '@letterbox/testing';
import { AuditLog } from './audit-log';
import { AuditTrail } from './audit-trail';

describe('the audit log: append-only, read back in pages with filters', () => {
  let db: Database;

  before(() => {
    db = testDatabase();
  });

  after(async () => {
    await db.close();
  });

  test('a record is read back as written, newest first, filtered by action, actor and time, in pages', async () => {
    const user = await createTestUser(db, 'audited');
    const log = new AuditLog(db.sql);
    const trail = new AuditTrail(db.sql);
    const since = new Date(Date.now() - 1000);
    await log.record({ officeId: user.officeId, actor: { cli: true }, action: 'user.create', target: user.email, details: { userId: user.id } });
    await log.record({ officeId: user.officeId, actor: { userId: user.id, address: user.email }, action: 'auth.sign-in', clientAddress: '198.51.100.4' });
    await log.record({ officeId: user.officeId, actor: { userId: user.id, address: user.email }, action: 'auth.sign-out' });
    const first = await trail.page(user.officeId, { limit: 2 });
    assert.deepEqual(
      first.events.map((event) => event.action),
      ['auth.sign-out', 'auth.sign-in'],
    );
    assert.deepEqual(first.events[1], {
      id: first.events[1].id,
      at: first.events[1].at,
      actor: user.email,
      actorUserId: user.id,
      action: 'auth.sign-in',
      target: null,
      details: {},
      clientAddress: '198.51.100.4',
    });
    const rest = await trail.page(user.officeId, { limit: 2, cursor: first.nextCursor ?? undefined });
    assert.deepEqual(
      rest.events.map(({ actor, actorUserId, action, target, details }) => ({ actor, actorUserId, action, target, details })),
      [{ actor: 'cli', actorUserId: null, action: 'user.create', target: user.email, details: { userId: user.id } }],
    );
    assert.equal(rest.nextCursor, null);
    assert.deepEqual((await trail.page(user.officeId, { limit: 10, action: 'auth.sign-in' })).events.length, 1);
    assert.deepEqual((await trail.page(user.officeId, { limit: 10, actor: 'cli' })).events.length, 1);
    assert.deepEqual((await trail.page(user.officeId, { limit: 10, since, until: new Date(Date.now() + 60_000) })).events.length, 3);
    assert.deepEqual((await trail.page(user.officeId, { limit: 10, until: since })).events.length, 0);
    const otherOffice = await createOffice(db, { name: 'Audit bystander', domain: `bystander-${user.domain}` });
    assert.deepEqual((await trail.page(otherOffice.id, { limit: 10 })).events, [], "another office's log is its own");
  });

  test('what was recorded cannot be changed or deleted', async () => {
    const user = await createTestUser(db, 'audit-kept');
    await new AuditLog(db.sql).record({ officeId: user.officeId, actor: { cli: true }, action: 'user.disable', target: user.email });
    await assert.rejects(db.sql.query(`UPDATE audit_events SET action = 'user.enable' WHERE office_id = $1`, [user.officeId]), /append-only: UPDATE refused/);
    await assert.rejects(db.sql.query('DELETE FROM audit_events WHERE office_id = $1', [user.officeId]), /append-only: DELETE refused/);
    const { rows } = await db.sql.query('SELECT action FROM audit_events WHERE office_id = $1', [user.officeId]);
    assert.deepEqual(rows, [{ action: 'user.disable' }]);
  });
});
