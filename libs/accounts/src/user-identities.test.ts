import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase } from '@letterbox/testing';
import { identitiesOf } from './user-identities';

let db: Database;

before(() => {
  db = testDatabase();
});

after(async () => {
  await db.close();
});

test('the identities of users are given in the order asked, undefined for one who does not exist', async () => {
  const [nora, omar] = [await createTestUser(db, 'nora'), await createTestUser(db, 'omar')];
  assert.deepEqual(await identitiesOf(db, [omar.id, -1, nora.id, omar.id]), [
    { email: omar.email, displayName: omar.displayName, addresses: [omar.email], addressNames: {} },
    undefined,
    { email: nora.email, displayName: nora.displayName, addresses: [nora.email], addressNames: {} },
    { email: omar.email, displayName: omar.displayName, addresses: [omar.email], addressNames: {} },
  ]);
  assert.deepEqual(await identitiesOf(db, []), []);
});

test('a user’s addresses are the primary first, then the aliases; a group’s address is none of them', async () => {
  const pia = await createTestUser(db, 'pia');
  const aliases = [`zed@${pia.domain}`, `assistant@${pia.domain}`];
  await db.prisma.address.createMany({ data: aliases.map((address) => ({ address, officeId: pia.officeId, kind: 'alias' as const, userId: pia.id })) });
  const team = await db.prisma.group.create({ data: { officeId: pia.officeId, name: 'Team' } });
  await db.prisma.address.create({ data: { address: `team@${pia.domain}`, officeId: pia.officeId, kind: 'group', groupId: team.id } });
  const [identity] = await identitiesOf(db, [pia.id]);
  assert.deepEqual(identity?.addresses, [pia.email, `assistant@${pia.domain}`, `zed@${pia.domain}`]);
});
