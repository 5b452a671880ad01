import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { JOB_DONE, workerConnection } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testSettings, unlinkKeys, logFaultsAsExpected } from '@letterbox/testing';
import { SendDelivery, type SendDeliveryOptions } from './send-delivery';
import { SenderRateLimit } from './sender-rate-limit';
import { SendRecords } from '../submit/send-records';
import type { SendRequest } from '../submit/send-request';
import { FakeProvider } from '../testing/fake-provider';
import { deliveryRecord, FakeAttempt, senderOf, sendRequest } from '../testing/recorded-sends';
import { outgoingMailOptions } from '../testing/outgoing-mail-options';

// Attempts are cut short and refused on purpose here: their warnings are expected.
logFaultsAsExpected();

describe('SendDelivery: a send run again sends only what did not go', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  let db: Database;
  let redis: RedisConnection;
  let records: SendRecords;
  let rateLimit: SenderRateLimit;

  before(() => {
    db = testDatabase();
    redis = workerConnection(testSettings());
    records = new SendRecords(db);
    rateLimit = new SenderRateLimit(redis, 1000, 1000, queuePrefix);
  });

  after(async () => {
    await unlinkKeys(redis, `${queuePrefix}:*`);
    redis.disconnect();
    await db.close();
  });

  function deliveryTo(provider: FakeProvider, options: Partial<SendDeliveryOptions> = {}): SendDelivery {
    return new SendDelivery(db, blobs, provider.transporter, rateLimit, { readApiPublicUrl: 'http://read.test', ...outgoingMailOptions(db), ...options });
  }

  async function recorded(request: SendRequest): Promise<number> {
    const { send } = await records.record(senderOf(await createTestUser(db, 'sender')), request, { queuePrefix });
    return send.id;
  }

  test('a retry of a per-recipient send sends only the recipients not delivered yet', async () => {
    const provider = new FakeProvider();
    const delivery = deliveryTo(provider, { receipts: provider });
    const [ann, ben, cat] = ['ann', 'ben', 'cat'].map(recipient);
    provider.answer(ben, { code: 421, text: '4.7.0 too busy' });
    const sendId = await recorded(sendRequest({ to: [ann, ben, cat], sendSeparately: true }));
    await assert.rejects(delivery.deliver({ sendId }, new FakeAttempt(1)), { responseCode: 421 });
    assert.deepEqual((await deliveryRecord(db, sendId)).deliveredTo, [ann]);
    assert.deepEqual(await delivery.deliver({ sendId }, new FakeAttempt(2)), JOB_DONE);
    assert.deepEqual(provider.handedOver, [[ann], [ben], [ben], [cat]]);
    assert.deepEqual((await deliveryRecord(db, sendId)).deliveredTo, [ann, ben, cat]);
  });

  test('after an attempt cut short, the retry asks the provider, and does not send again what it took', async () => {
    const provider = new FakeProvider();
    const delivery = deliveryTo(provider, { receipts: provider });
    const [ann, ben] = ['ann', 'ben'].map(recipient);
    provider.answer(ben, 'took it, then the connection dropped');
    const sendId = await recorded(sendRequest({ to: [ann, ben], sendSeparately: true }));
    await assert.rejects(delivery.deliver({ sendId }, new FakeAttempt(1)), { code: 'ECONNECTION' });
    assert.deepEqual(await delivery.deliver({ sendId }, new FakeAttempt(2)), JOB_DONE);
    assert.equal(provider.takenFor(ben).length, 1);
    const record = await deliveryRecord(db, sendId);
    assert.equal(record.status, 'sent');
    assert.deepEqual(record.deliveredTo, [ann, ben]);
  });

  test('without a provider to ask, a message whose attempt was cut short is sent again', async () => {
    const provider = new FakeProvider();
    const delivery = deliveryTo(provider);
    const ann = recipient('ann');
    provider.answer(ann, 'took it, then the connection dropped');
    const sendId = await recorded(sendRequest({ to: [ann] }));
    await assert.rejects(delivery.deliver({ sendId }, new FakeAttempt(1)), { code: 'ECONNECTION' });
    assert.deepEqual(await delivery.deliver({ sendId }, new FakeAttempt(2)), JOB_DONE);
    assert.equal(provider.takenFor(ann).length, 2);
  });

  test('a job run again once its send went out, or for a cancelled send, sends nothing', async () => {
    const provider = new FakeProvider();
    const delivery = deliveryTo(provider);
    const sentId = await recorded(sendRequest({ to: [recipient('ann')] }));
    assert.deepEqual(await delivery.deliver({ sendId: sentId }, new FakeAttempt()), JOB_DONE);
    assert.deepEqual(await delivery.deliver({ sendId: sentId }, new FakeAttempt()), JOB_DONE);
    const cancelledId = await recorded(sendRequest({ to: [recipient('ben')] }));
    await db.prisma.outboundSend.update({ where: { id: BigInt(cancelledId) }, data: { status: 'cancelled' } });
    assert.deepEqual(await delivery.deliver({ sendId: cancelledId }, new FakeAttempt()), JOB_DONE);
    assert.equal(provider.handedOver.length, 1);
    assert.equal((await deliveryRecord(db, cancelledId)).status, 'cancelled');
  });

  test('a send given up is recorded failed with the reason, unless it went out meanwhile', async () => {
    const provider = new FakeProvider();
    const delivery = deliveryTo(provider);
    const ann = recipient('ann');
    provider.answer(ann, { code: 451, text: '4.3.0 try again later' });
    const stuckId = await recorded(sendRequest({ to: [ann] }));
    await assert.rejects(delivery.deliver({ sendId: stuckId }, new FakeAttempt()));
    await delivery.giveUp(stuckId, 'the job stalled too many times');
    const stuck = await deliveryRecord(db, stuckId);
    assert.equal(stuck.status, 'failed');
    assert.equal(stuck.lastError, 'the job stalled too many times');
    const sentId = await recorded(sendRequest({ to: [recipient('ben')] }));
    await delivery.deliver({ sendId: sentId }, new FakeAttempt());
    await delivery.giveUp(sentId, 'too late');
    const sent = await deliveryRecord(db, sentId);
    assert.equal(sent.status, 'sent');
    assert.equal(sent.lastError, null);
  });
});
