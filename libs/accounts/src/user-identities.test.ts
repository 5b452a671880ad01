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
    { email: omar.email, displayName: omar.displayName },
    undefined,
    { email: nora.email, displayName: nora.displayName },
    { email: omar.email, displayName: omar.displayName },
  ]);
  assert.deepEqual(await identitiesOf(db, []), []);
});
