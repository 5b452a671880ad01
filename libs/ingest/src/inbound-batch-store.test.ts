import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { workerConnection, type InboundMessageJob } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { dedupKeyOf } from './dedup-key';
import { InboundBatchStore } from './inbound-batch-store';
import type { StoredInboundMail } from './inbound-batch-insert';
import { IngestedMessages } from './ingested-messages';

describe('InboundBatchStore', () => {
  const blobs = testBlobStore();
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  let db: Database;
  let redis: RedisConnection;
  let user: TestUser;
  let announced: StoredInboundMail[][];
  let store: InboundBatchStore;
  let unstorable: string[];

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    user = await createTestUser(db, 'batch');
    announced = [];
    unstorable = [];
    store = new InboundBatchStore(
      db.sql,
      blobs,
      new IngestedMessages(redis, prefix),
      async (mails) => void announced.push(mails),
      (row) => unstorable.push(row.inboundId),
    );
  });

  after(async () => {
    redis?.disconnect();
    await db?.close();
  });

  async function accepted(
    recipientIds: number[],
    messageId = `<${randomUUID()}@example.org>`,
    { from = 'a@example.org', subject = 'batch' } = {},
  ): Promise<InboundMessageJob> {
    const blob = await blobs.put(Buffer.from(`From: ${from}\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n\r\nhello ${randomUUID()}\r\n`));
    return { inboundId: randomUUID(), storageKey: blob.key, size: blob.size, messageId, recipientIds, receivedAt: new Date().toISOString() };
  }

  /** As the intake queues it now: with the key of its sender and Message-ID. */
  async function acceptedFrom(from: string, messageId: string): Promise<InboundMessageJob> {
    const payload = await accepted([user.id], messageId, { from });
    return { ...payload, dedupKey: dedupKeyOf(from, messageId) };
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

  test('incoming mail joins its conversation: a reply by In-Reply-To, a Re: by subject', async () => {
    const originalId = `<${randomUUID()}@example.org>`;
    const subject = `Quarterly ${randomUUID()}`;
    await store.store([await accepted([user.id], originalId, { subject })]);
    const replyBlob = await blobs.put(Buffer.from(`From: b@example.org\r\nSubject: Re: ${subject}\r\nMessage-ID: <r-${randomUUID()}@example.org>\r\nIn-Reply-To: ${originalId}\r\n\r\nyes\r\n`));
    const reply = { inboundId: randomUUID(), storageKey: replyBlob.key, size: replyBlob.size, messageId: `<r@x>`, recipientIds: [user.id], receivedAt: new Date().toISOString() };
    await store.store([reply, await accepted([user.id], undefined, { subject: `RE: ${subject}` })]);
    const { rows } = await db.sql.query<{ threads: number; mails: number }>(
      'SELECT count(DISTINCT thread_id)::int AS threads, count(*)::int AS mails FROM mails WHERE user_id = $1 AND mail_thread_subject(subject) = lower($2)',
      [user.id, subject],
    );
    assert.deepEqual(rows[0], { threads: 1, mails: 3 });
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

  test('a batch of 100 with 3 poisoned messages stores all 100 in one pass', async () => {
    const poisoned = [
      // An encoded word that decodes to a NUL, and a lone surrogate in the sender's name: values jsonb refuses.
      await accepted([user.id], undefined, { subject: '=?utf-8?Q?a=00b?=', from: '=?utf-16be?B?2AA=?= <a@example.org>' }),
      // Message-IDs longer than an index entry may be (random, so compression cannot shrink them), in jobs queued before ids were bounded.
      await accepted([user.id], `<${randomBytes(1500).toString('hex')}@example.org>`),
      await accepted([user.id], `<${randomBytes(1500).toString('hex')}@example.org>`),
    ];
    const good = await Promise.all(Array.from({ length: 97 }, () => accepted([user.id])));
    const batch = [...good.slice(0, 40), ...poisoned, ...good.slice(40)];
    unstorable = [];
    announced = [];
    const outcomes = await store.store(batch);
    assert.deepEqual(outcomes, batch.map(() => ({ stored: 1, duplicates: 0 })));
    assert.equal(announced.flat().length, 100);
    assert.deepEqual(unstorable.sort(), [poisoned[1].inboundId, poisoned[2].inboundId].sort());
    for (const payload of good) assert.equal(await copies(payload.messageId), 1);
    const { rows } = await db.sql.query<{ subject: string; from_name: string }>(
      `SELECT m.subject, m.from_name FROM mails m JOIN inbound_messages im ON im.mail_id = m.id WHERE im.inbound_id = ANY($1::uuid[]) ORDER BY m.id`,
      [poisoned.map((payload) => payload.inboundId)],
    );
    assert.equal(rows.length, 3);
    assert.equal(rows[0].subject, 'ab');
    assert.equal(rows[0].from_name, '\ufffd');
    assert.match(rows[1].subject, /could not be read/);
    assert.deepEqual(await store.store(batch), batch.map(() => ({ stored: 0, duplicates: 1 })), 'a retry stores none again');
  });

  test('a message whose From has no address is stored with an empty sender, searchable, and announced as from an unknown sender', async () => {
    const subject = `anonymous ${randomUUID()}`;
    const payload = await accepted([user.id], undefined, { from: 'undisclosed', subject });
    announced = [];
    assert.deepEqual(await store.store([payload]), [{ stored: 1, duplicates: 0 }]);
    assert.deepEqual(announced.flat().map(({ from, subject }) => ({ from, subject })), [{ from: '(unknown sender)', subject }]);
    const { rows } = await db.sql.query(
      'SELECT m.from_address, m.from_name, s.mail_id IS NOT NULL AS searchable FROM mails m LEFT JOIN mail_search s ON s.mail_id = m.id WHERE m.user_id = $1 AND m.message_id = $2',
      [user.id, payload.messageId],
    );
    assert.deepEqual(rows, [{ from_address: '', from_name: '', searchable: true }]);
  });

  test('the same Message-ID from another sender is another message; from the same sender, the same one', async () => {
    const messageId = `<predictable-${randomUUID().slice(0, 4)}@bank.example>`;
    const forged = await acceptedFrom('forger@evil.example', messageId);
    const real = await acceptedFrom('alerts@bank.example', messageId);
    const again = await acceptedFrom('ALERTS@bank.example', messageId);
    assert.deepEqual(await store.store([forged]), [{ stored: 1, duplicates: 0 }]);
    assert.deepEqual(await store.store([real, again]), [{ stored: 1, duplicates: 0 }, { stored: 0, duplicates: 1 }]);
    assert.equal(await copies(messageId), 2);
  });
});
