import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import IORedis, { type Redis } from 'ioredis';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { InboundBatchStore, type IngestPayload } from './inbound-batch-store';
import type { StoredInboundMail } from './inbound-batch-insert';
import { IngestedMessages } from './ingested-messages';

describe('InboundBatchStore', () => {
  const blobs = testBlobStore();
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let db: Database;
  let redis: Redis;
  let user: TestUser;
  let announced: StoredInboundMail[][];
  let store: InboundBatchStore;

  before(async () => {
    db = testDatabase();
    redis = new IORedis(loadConfig(redisConfig).REDIS_URL);
    user = await createTestUser(db, 'batch');
    announced = [];
    store = new InboundBatchStore(db.sql, blobs, new IngestedMessages(redis, prefix), async (mails) => void announced.push(mails));
  });

  after(async () => {
    redis?.disconnect();
    await db?.close();
  });

  async function accepted(recipientIds: number[], messageId = `<${randomUUID()}@example.org>`): Promise<IngestPayload> {
    const blob = await blobs.put(Buffer.from(`From: a@example.org\r\nSubject: batch\r\nMessage-ID: ${messageId}\r\n\r\nhello ${randomUUID()}\r\n`));
    return { inboundId: randomUUID(), storageKey: blob.key, size: blob.size, messageId, recipientIds, receivedAt: new Date().toISOString() };
  }

  async function copies(messageId: string): Promise<number> {
    const { rows } = await db.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM mails WHERE user_id = $1 AND message_id = $2', [user.id, messageId]);
    return rows[0].count;
  }

  test('a batch retried after it was stored (a crash before its jobs completed) stores nothing again, and announces the same mails', async () => {
    const batch = [await accepted([user.id]), await accepted([user.id])];
    announced = [];
    assert.deepEqual(await store.store(batch), [{ stored: 1, duplicates: 0 }, { stored: 1, duplicates: 0 }]);
    assert.deepEqual(await store.store(batch), [{ stored: 0, duplicates: 1 }, { stored: 0, duplicates: 1 }]);
    const [first, retry] = announced;
    assert.deepEqual(retry.map((mail) => mail.mailId).sort(), first.map((mail) => mail.mailId).sort());
    assert.ok(first.every((mail) => mail.storedNow) && retry.every((mail) => !mail.storedNow));
    for (const payload of batch) assert.equal(await copies(payload.messageId), 1);
  });

  test('a redelivery is skipped by Redis; once Redis has forgotten, PostgreSQL still refuses it', async () => {
    const original = await accepted([user.id]);
    await store.store([original]);
    const redelivery = { ...(await accepted([user.id], original.messageId)) };
    announced = [];
    assert.deepEqual(await store.store([redelivery]), [{ stored: 0, duplicates: 1 }]);
    await redis.del(...(await redis.keys(`${prefix}:ingested:*`)));
    assert.deepEqual(await store.store([{ ...redelivery, inboundId: randomUUID() }]), [{ stored: 0, duplicates: 1 }]);
    assert.deepEqual(announced.flat(), []);
    assert.equal(await copies(original.messageId), 1);
  });

  test('the same message twice in one batch is stored once', async () => {
    const first = await accepted([user.id]);
    const second = await accepted([user.id], first.messageId);
    assert.deepEqual(await store.store([first, second]), [{ stored: 1, duplicates: 0 }, { stored: 0, duplicates: 1 }]);
    assert.equal(await copies(first.messageId), 1);
  });

  test('a message whose file is missing fails alone; the rest of its batch is stored', async () => {
    const good = await accepted([user.id]);
    const lost = { ...(await accepted([user.id])), storageKey: 'f'.repeat(64) };
    const [stored, failed] = await store.store([good, lost]);
    assert.deepEqual(stored, { stored: 1, duplicates: 0 });
    assert.ok(failed instanceof Error);
    assert.equal(await copies(good.messageId), 1);
    assert.equal(await copies(lost.messageId), 0);
  });

  test('one message for several recipients is read once and stored in each inbox, counters included', async () => {
    const other = await createTestUser(db, 'other');
    const payload = await accepted([user.id, other.id]);
    assert.deepEqual(await store.store([payload]), [{ stored: 2, duplicates: 0 }]);
    const { rows } = await db.sql.query<{ user_id: number; total_count: number; unread_count: number }>(
      `SELECT b.user_id, b.total_count, b.unread_count FROM mailboxes b WHERE b.role = 'inbox' AND b.user_id = $1`,
      [other.id],
    );
    assert.deepEqual(rows, [{ user_id: other.id, total_count: 1, unread_count: 1 }]);
  });
});
