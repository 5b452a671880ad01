import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig, redisConfig } from '@letterbox/config';
import { primaryOnly, type Database } from '@letterbox/db';
import { createMailAnnouncer } from '@letterbox/events';
import { randomMail } from '@letterbox/mail-generator';
import { workerConnection } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, unlinkKeys, type TestUser } from '@letterbox/testing';
import { storeMail } from '../store/store-mail';
import { SpamSweep } from './spam-sweep';

describe('the Spam sweep', () => {
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  let db: Database;
  let redis: RedisConnection;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    user = await createTestUser(db, 'spam-sweep');
  });

  after(async () => {
    if (redis) await unlinkKeys(redis, `${prefix}:*`);
    redis?.disconnect();
    await db?.close();
  });

  async function stored(mailboxId: number, daysAgo: number, seed: number): Promise<number> {
    const { id } = await storeMail(db, blobs, { userId: user.id, mailboxId, eml: await randomMail(seed, { to: [{ name: 'Sweep', address: user.email }] }) });
    await db.sql.query(`UPDATE mails SET received_at = now() - $2::int * interval '1 day' WHERE id = $1`, [id, daysAgo]);
    return id;
  }

  async function live(id: number): Promise<boolean> {
    const { rows } = await db.sql.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM mails WHERE id = $1', [id]);
    return rows[0].deleted_at === null;
  }

  test('deletes Spam older than the retention, in batches; leaves newer Spam and old mail elsewhere', async () => {
    const oldSpam = [await stored(user.mailboxes.spam, 31, 8101), await stored(user.mailboxes.spam, 40, 8102), await stored(user.mailboxes.spam, 45, 8103)];
    const newSpam = await stored(user.mailboxes.spam, 29, 8104);
    const oldInbox = await stored(user.mailboxes.inbox, 90, 8105);
    const announcer = createMailAnnouncer({ redis, queuePrefix: prefix, writes: primaryOnly(db.sql) });
    // Other tests' old Spam may be swept too: this user's is what is checked.
    const sweep = new SpamSweep(db.sql, announcer, { retentionDays: 30, batchSize: 2 });
    while ((await sweep.sweep()) === 2);
    for (const id of oldSpam) assert.equal(await live(id), false, `old Spam ${id} deleted`);
    assert.equal(await live(newSpam), true);
    assert.equal(await live(oldInbox), true);
    const spam = await db.prisma.mailbox.findUniqueOrThrow({ where: { id: user.mailboxes.spam }, select: { totalCount: true } });
    assert.equal(spam.totalCount, 1);
  });
});
