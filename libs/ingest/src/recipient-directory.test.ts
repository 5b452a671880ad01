import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CreatedUser } from '@letterbox/accounts';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import type { Database } from '@letterbox/db';
import {
  addTestAlias,
  addTestGroupMembers,
  createColleagueOf,
  createTestGroup,
  createTestUser,
  setTestQuota,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
} from '@letterbox/testing';
import { ColleagueDelivery } from './colleague-delivery';
import { createInboundIntake } from './create-inbound-intake';
import { quotaVerdict } from './quota-verdict';
import { RecipientDirectory } from './recipient-directory';
import { RecipientQuotas } from './recipient-quotas';

describe('the recipient directory: addresses, aliases, groups and domains', () => {
  let db: Database;
  let ann: TestUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let statements: string[];
  let directory: RecipientDirectory;
  const at = (local: string) => `${local}@${ann.domain}`;

  before(async () => {
    db = testDatabase();
    ann = await createTestUser(db, 'ann');
    bob = await createColleagueOf(db, ann, 'bob');
    carol = await createColleagueOf(db, ann, 'carol');
    await addTestAlias(db, bob, at('robert'));
    // team: bob and the group inner; inner: carol, ann and, a loop the admin API would refuse, team again.
    const team = await createTestGroup(db, ann.officeId, at('team'), { userIds: [bob.id] });
    const inner = await createTestGroup(db, ann.officeId, at('inner'), { userIds: [carol.id, ann.id], groupIds: [team] });
    await addTestGroupMembers(db, team, { groupIds: [inner] });
    await createTestGroup(db, ann.officeId, at('nobody-yet'));
    statements = [];
    const counted = Object.create(db.sql) as typeof db.sql;
    counted.query = ((config: { name?: string }, ...rest: unknown[]) => {
      statements.push(config.name ?? 'unnamed');
      return (db.sql.query as (...args: unknown[]) => unknown).call(db.sql, config, ...rest);
    }) as typeof db.sql.query;
    directory = new RecipientDirectory(counted);
  });

  after(async () => {
    await db?.close();
  });

  test('a primary address and an alias reach their user; a group reaches every member, groups inside it included, each once, a loop too', async () => {
    const resolved = await directory.resolve([ann.email, at('Robert'), at('team'), at('inner')]);
    assert.deepEqual(Object.fromEntries(resolved.known), {
      [ann.email]: { userIds: [ann.id], group: false },
      [at('robert')]: { userIds: [bob.id], group: false },
      [at('team')]: { userIds: [ann.id, bob.id, carol.id].sort((a, b) => a - b), group: true },
      [at('inner')]: { userIds: [ann.id, bob.id, carol.id].sort((a, b) => a - b), group: true },
    });
    assert.deepEqual(resolved.unknown, []);
    assert.deepEqual(resolved.foreign, []);
  });

  test("an unknown address in an office's domain is unknown; one in a domain no office owns is foreign; a group without members takes no mail", async () => {
    const resolved = await directory.resolve([at('ghost'), 'someone@elsewhere.example', at('nobody-yet')]);
    assert.deepEqual(resolved.known.size, 0);
    assert.deepEqual(resolved.unknown.sort(), [at('ghost'), at('nobody-yet')].sort());
    assert.deepEqual(resolved.foreign, ['someone@elsewhere.example']);
  });

  test('a batch of addresses is one statement, the same addresses asked meanwhile wait for it, and a cached answer is none', async () => {
    statements.length = 0;
    const fresh = [at('fresh-1'), at('fresh-2'), 'x@fresh.example'];
    const answers = await Promise.all(Array.from({ length: 20 }, () => directory.resolve(fresh)));
    await directory.resolve(fresh);
    assert.deepEqual(statements, ['recipients-resolve']);
    for (const answer of answers) assert.deepEqual(answer, { known: new Map(), unknown: [at('fresh-1'), at('fresh-2')], foreign: ['x@fresh.example'] });
  });

  test("colleague delivery counts aliases and groups among Letterbox's own: mail to them never goes through the provider", async () => {
    const queues = testQueues(testQueuePrefix());
    try {
      const intake = createInboundIntake({
        sql: db.sql,
        blobs: testBlobStore(),
        references: new DatabaseBlobReferences(db.sql),
        queues,
        maxMessageBytes: 1024 * 1024,
        defaultQuotaBytes: 1024 ** 3,
        directory,
      });
      const colleagues = new ColleagueDelivery(directory, intake);
      assert.deepEqual(await colleagues.colleaguesAmong([at('robert'), at('team'), at('ghost'), 'x@elsewhere.example']), new Set([at('robert'), at('team')]));
    } finally {
      await queues.close();
    }
  });

  test('usage is read afresh: a group delivers to the members who can take a message, and its address is full only when none can', async () => {
    const quotas = new RecipientQuotas(db.sql, 1024 ** 3);
    const { known } = await directory.resolve([at('team'), ann.email]);
    const userIds = [ann.id, bob.id, carol.id];
    assert.deepEqual(quotaVerdict(known, await quotas.usageOf(userIds), 5000), { userIds: [ann.id, bob.id, carol.id].sort((a, b) => a - b), full: [] });
    await setTestQuota(db, bob.id, 1000);
    const oneFull = quotaVerdict(known, await quotas.usageOf(userIds), 5000);
    assert.deepEqual(oneFull.full, []);
    assert.deepEqual(oneFull.userIds.sort(), [ann.id, carol.id].sort());
    await setTestQuota(db, ann.id, 1000);
    await setTestQuota(db, carol.id, 1000);
    const allFull = quotaVerdict(known, await quotas.usageOf(userIds), 5000);
    assert.deepEqual(allFull.full, [{ address: at('team') }, { address: ann.email, usage: { usedBytes: 0, quotaBytes: 1000 } }]);
    assert.deepEqual(allFull.userIds, [ann.id], "a user addressed directly stays: whether that refuses the message is the intake's to say");
    assert.deepEqual(quotaVerdict(known, await quotas.usageOf(userIds), 1000).full, [], 'exactly at the quota still fits');
  });
});
