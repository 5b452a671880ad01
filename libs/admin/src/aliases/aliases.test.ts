import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { testDatabase } from '@letterbox/testing';
import { AddressTakenError, AliasNotFoundError, DomainNotOwnedError, DomainTakenError, UserNotFoundError } from '../admin-errors';
import { adminFixture, auditActions } from '../testing/admin-fixture';

describe('admin: aliases and domains of an office', () => {
  let db: Database;

  before(() => {
    db = testDatabase();
  });

  after(async () => {
    await db.close();
  });

  test('an alias in a domain the office added is the user’s; taken, foreign and unknown ones are refused', async () => {
    const admin = await adminFixture(db);
    const second = `${admin.domain.split('.')[0]}-eu.test`;
    const domain = await admin.domains.add(admin.act, second.toUpperCase());
    assert.equal(domain.name, second);
    assert.deepEqual((await admin.domains.list(admin.office.id)).map((each) => each.name).sort(), [admin.domain, second].sort());
    await assert.rejects(admin.domains.add(admin.act, second), DomainTakenError);
    const mia = await admin.addUser.add(admin.act, { email: `mia@${admin.domain}`, displayName: 'Mia', password: 'initial password' });
    assert.deepEqual((await admin.aliases.add(admin.act, mia.id, `Mia.Wong@${second}`)).aliases, [`mia.wong@${second}`]);
    await assert.rejects(admin.aliases.add(admin.act, mia.id, `mia.wong@${second}`), AddressTakenError);
    await assert.rejects(admin.aliases.add(admin.act, mia.id, 'mia@nowhere.test'), DomainNotOwnedError);
    const other = await adminFixture(db);
    await assert.rejects(other.aliases.add(other.act, mia.id, `x@${other.domain}`), UserNotFoundError);
    await assert.rejects(other.aliases.remove(other.act, mia.id, `mia.wong@${second}`), AliasNotFoundError);
    await assert.rejects(admin.aliases.remove(admin.act, mia.id, mia.email), AliasNotFoundError, 'the primary address is not an alias');
    await admin.aliases.remove(admin.act, mia.id, `mia.wong@${second}`);
    assert.deepEqual((await admin.users.get(admin.office.id, mia.id)).aliases, []);
    assert.deepEqual(await auditActions(db, admin.office.id), ['office.create', 'domain.create', 'user.create', 'alias.create', 'alias.delete']);
  });
});
