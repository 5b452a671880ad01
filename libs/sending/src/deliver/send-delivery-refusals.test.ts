import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { JOB_DONE, workerConnection } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testSettings, unlinkKeys, logFaultsAsExpected } from '@letterbox/testing';
import { SendDelivery } from './send-delivery';
import { SenderRateLimit } from './sender-rate-limit';
import { SendRecords } from '../submit/send-records';
import type { SendRequest } from '../submit/send-request';
import { FakeProvider } from '../testing/fake-provider';
import { deliveryRecord, FakeAttempt, senderOf, sendRequest } from '../testing/recorded-sends';
import { outgoingMailOptions } from '../testing/outgoing-mail-options';

// The provider refuses on purpose here: its warnings are expected.
logFaultsAsExpected();

const NO_SUCH_USER = { code: 550, text: '5.1.1 no such user' };
const TRY_LATER = { code: 451, text: '4.3.0 try again later' };

describe('SendDelivery: what a refusal does, for good (5xx) or for now (4xx)', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  let db: Database;
  let redis: RedisConnection;
  let records: SendRecords;
  let provider: FakeProvider;
  let delivery: SendDelivery;

  before(() => {
    db = testDatabase();
    redis = workerConnection(testSettings());
    records = new SendRecords(db);
    provider = new FakeProvider();
    delivery = new SendDelivery(db, blobs, provider.transporter, new SenderRateLimit(redis, 1000, 1000, queuePrefix), {
      readApiPublicUrl: 'http://read.test',
      ...outgoingMailOptions(db),
    });
  });

  after(async () => {
    await unlinkKeys(redis, `${queuePrefix}:*`);
    redis.disconnect();
    await db.close();
  });

  async function recorded(request: SendRequest): Promise<number> {
    const { send } = await records.record(senderOf(await createTestUser(db, 'sender')), request, { queuePrefix });
    return send.id;
  }

  test('a 5xx fails a whole-send at once, with the provider’s reply', async () => {
    const [ann, ben] = ['ann', 'ben'].map(recipient);
    provider.answer(ben, NO_SUCH_USER);
    const sendId = await recorded(sendRequest({ to: [ann, ben] }));
    assert.deepEqual(await delivery.deliver({ sendId }, new FakeAttempt()), { outcome: 'failed', reason: '550 5.1.1 no such user' });
    const record = await deliveryRecord(db, sendId);
    assert.equal(record.status, 'failed');
    assert.equal(record.lastError, '550 5.1.1 no such user');
    assert.deepEqual(record.deliveredTo, []);
  });

  test('a 5xx in a per-recipient send refuses that recipient only, with its reason; the others are delivered', async () => {
    const [ann, ben, cat] = ['ann', 'ben', 'cat'].map(recipient);
    provider.answer(ben, NO_SUCH_USER);
    const sendId = await recorded(sendRequest({ to: [ann, ben, cat], sendSeparately: true }));
    assert.deepEqual(await delivery.deliver({ sendId }, new FakeAttempt()), JOB_DONE);
    assert.equal(provider.takenFor(ann).length, 1);
    assert.equal(provider.takenFor(ben).length, 0);
    assert.equal(provider.takenFor(cat).length, 1);
    const record = await deliveryRecord(db, sendId);
    assert.equal(record.status, 'sent');
    assert.deepEqual(record.deliveredTo, [ann, cat]);
    assert.deepEqual(record.refusedTo, [ben]);
    assert.equal(record.lastError, `refused for good: ${ben}`);
  });

  test('a per-recipient send fails only when every recipient is refused', async () => {
    const [ann, ben] = ['ann', 'ben'].map(recipient);
    provider.answer(ann, NO_SUCH_USER);
    provider.answer(ben, NO_SUCH_USER);
    const sendId = await recorded(sendRequest({ to: [ann, ben], sendSeparately: true }));
    assert.deepEqual(await delivery.deliver({ sendId }, new FakeAttempt()), { outcome: 'failed', reason: `every recipient was refused: ${ann}, ${ben}` });
    const record = await deliveryRecord(db, sendId);
    assert.equal(record.status, 'failed');
    assert.deepEqual(record.refusedTo, [ann, ben]);
  });

  test('a 4xx fails the run, for the queue to try again; the next attempt delivers', async () => {
    const ann = recipient('ann');
    provider.answer(ann, TRY_LATER);
    const sendId = await recorded(sendRequest({ to: [ann] }));
    await assert.rejects(delivery.deliver({ sendId }, new FakeAttempt(1)), { responseCode: 451 });
    const waiting = await deliveryRecord(db, sendId);
    assert.equal(waiting.status, 'sending');
    assert.equal(waiting.lastError, '451 4.3.0 try again later');
    assert.deepEqual(waiting.deliveredTo, []);
    assert.deepEqual(await delivery.deliver({ sendId }, new FakeAttempt(2)), JOB_DONE);
    assert.equal(provider.takenFor(ann).length, 1);
    const sent = await deliveryRecord(db, sendId);
    assert.equal(sent.status, 'sent');
    assert.equal(sent.attempts, 2);
  });

  test('a 4xx on the last attempt fails the send', async () => {
    const ann = recipient('ann');
    provider.answer(ann, TRY_LATER);
    const sendId = await recorded(sendRequest({ to: [ann] }));
    await assert.rejects(delivery.deliver({ sendId }, new FakeAttempt(10, true)), { responseCode: 451 });
    const record = await deliveryRecord(db, sendId);
    assert.equal(record.status, 'failed');
    assert.equal(record.lastError, '451 4.3.0 try again later');
  });
});
