import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { JOB_DONE, workerConnection } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testSettings, unlinkKeys } from '@letterbox/testing';
import { SendDelivery } from './send-delivery';
import { SenderRateLimit } from './sender-rate-limit';
import { SendRecords } from '../submit/send-records';
import { SentCopies } from '../sent-copies/sent-copies';
import { FakeProvider } from '../testing/fake-provider';
import { headersOf, htmlOf } from '../testing/message-headers';
import { deliveryRecord, FakeAttempt, senderOf, sendRequest } from '../testing/recorded-sends';
import { outgoingMailOptions } from '../testing/outgoing-mail-options';

const READ_API = 'http://read.test';

describe('SendDelivery: a send put off (for its sender’s rate limit, for its Sent copy) is not failed', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  let db: Database;
  let redis: RedisConnection;
  let records: SendRecords;

  before(() => {
    db = testDatabase();
    redis = workerConnection(testSettings());
    records = new SendRecords(db);
  });

  after(async () => {
    await unlinkKeys(redis, `${queuePrefix}:*`);
    redis.disconnect();
    await db.close();
  });

  test('a sender over its rate limit is put off to its slot, holding the token it took; that run goes without taking another', async () => {
    // One message every 10 s: a sender who has just sent waits far longer than a worker waits in place.
    const rateLimit = new SenderRateLimit(redis, 0.1, 1, queuePrefix);
    const provider = new FakeProvider();
    const delivery = new SendDelivery(db, blobs, provider.transporter, rateLimit, { readApiPublicUrl: READ_API, ...outgoingMailOptions(db) });
    const user = await createTestUser(db, 'busy');
    const { send } = await records.record(senderOf(user), sendRequest({ to: [recipient('ann')] }), { queuePrefix });
    assert.equal(await rateLimit.take(user.email), 0, 'the sender’s one token, taken by a message before');

    const putOff = await delivery.deliver({ sendId: send.id }, new FakeAttempt());
    assert.ok(putOff.outcome === 'later', `put off, not ${putOff.outcome}`);
    const slot = putOff.payload?.tokenDueAt;
    assert.ok(slot !== undefined && slot > Date.now() + 1000, 'its slot, seconds away, goes with the job');
    assert.ok(putOff.at < slot, 'it comes back before its slot');
    assert.deepEqual(provider.handedOver, []);
    const waiting = await deliveryRecord(db, send.id);
    assert.equal(waiting.status, 'queued');
    assert.equal(waiting.attempts, 0);

    // The run at its slot: any token it took now would put it off again, the sender being in debt.
    const atSlot = new FakeAttempt();
    assert.deepEqual(await delivery.deliver({ sendId: send.id, tokenDueAt: Date.now() }, atSlot), JOB_DONE);
    assert.equal(provider.taken.length, 1);
    assert.deepEqual(atSlot.payloadUpdates, [{ sendId: send.id, tokenDueAt: undefined }], 'the token is used: a retry takes its own');
    assert.equal((await deliveryRecord(db, send.id)).status, 'sent');
  });

  test('a send with read receipts waits for its Sent copy; then each recipient’s message carries their own image', async () => {
    const provider = new FakeProvider();
    const delivery = new SendDelivery(db, blobs, provider.transporter, new SenderRateLimit(redis, 1000, 1000, queuePrefix), {
      readApiPublicUrl: READ_API,
      ...outgoingMailOptions(db),
    });
    const user = await createTestUser(db, 'receipts');
    const [ann, ben] = ['ann', 'ben'].map(recipient);
    const { send } = await records.record(senderOf(user), sendRequest({ to: [ann, ben], saveCopy: true, requestReadReceipt: true }), { queuePrefix });

    const early = await delivery.deliver({ sendId: send.id }, new FakeAttempt());
    assert.equal(early.outcome, 'later');
    assert.deepEqual(provider.handedOver, []);
    assert.equal((await deliveryRecord(db, send.id)).attempts, 0);

    await new SentCopies(db, blobs, queuePrefix).store([send.id]);
    assert.deepEqual(await delivery.deliver({ sendId: send.id }, new FakeAttempt()), JOB_DONE);
    const receipts = await db.prisma.readReceipt.findMany({ where: { mailId: BigInt(send.sentMailId ?? 0) } });
    assert.deepEqual(receipts.map((receipt) => receipt.recipientEmail).sort(), [ann, ben].sort());
    assert.deepEqual(
      provider.taken.map((message) => message.recipients),
      [[ann], [ben]],
    );
    for (const message of provider.taken) {
      const [to] = message.recipients;
      const certKey = receipts.find((receipt) => receipt.recipientEmail === to)?.certKey;
      const html = await htmlOf(message.raw);
      assert.ok(
        html.includes(`src="${READ_API}/v2/office/${user.officeId}/receipt-confirm/${certKey}/email/${encodeURIComponent(to)}"`),
        `${to}'s image: ${html}`,
      );
      assert.deepEqual((await headersOf(message.raw)).to, [ann, ben], 'each sees every recipient');
    }
  });

  test('a send without read receipts goes whether its Sent copy is stored yet or not', async () => {
    const provider = new FakeProvider();
    const delivery = new SendDelivery(db, blobs, provider.transporter, new SenderRateLimit(redis, 1000, 1000, queuePrefix), {
      readApiPublicUrl: READ_API,
      ...outgoingMailOptions(db),
    });
    const { send } = await records.record(senderOf(await createTestUser(db, 'copy')), sendRequest({ to: [recipient('ann')], saveCopy: true }), { queuePrefix });
    assert.deepEqual(await delivery.deliver({ sendId: send.id }, new FakeAttempt()), JOB_DONE);
    assert.equal(provider.taken.length, 1);
    const row = await db.prisma.outboundSend.findUniqueOrThrow({ where: { id: BigInt(send.id) } });
    assert.equal(row.sentCopyPending, true);
    assert.equal(row.status, 'sent');
  });
});
