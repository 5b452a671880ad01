import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { JOB_DONE, workerConnection } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testSettings, unlinkKeys } from '@letterbox/testing';
import { SendDelivery, type Colleagues } from './send-delivery';
import { SenderRateLimit } from './sender-rate-limit';
import { SendRecords } from '../submit/send-records';
import type { SendRequest } from '../submit/send-request';
import { FakeColleagues } from '../testing/fake-colleagues';
import { FakeProvider } from '../testing/fake-provider';
import { headersOf } from '../testing/message-headers';
import { deliveryRecord, FakeAttempt, senderOf, sendRequest } from '../testing/recorded-sends';
import { outgoingMailOptions } from '../testing/outgoing-mail-options';

describe('SendDelivery: the messages a send goes out as, and who delivers them', () => {
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
    // Room for every message of the file at once: pacing is send-delivery-put-off.test.ts's.
    rateLimit = new SenderRateLimit(redis, 1000, 1000, queuePrefix);
  });

  after(async () => {
    await unlinkKeys(redis, `${queuePrefix}:*`);
    redis.disconnect();
    await db.close();
  });

  /** A send recorded for a new user and delivered in one run: what the provider and Letterbox's own users got. */
  async function delivered(request: SendRequest, colleagues?: Colleagues) {
    const provider = new FakeProvider();
    const delivery = new SendDelivery(db, blobs, provider.transporter, rateLimit, {
      readApiPublicUrl: 'http://read.test',
      colleagues,
      ...outgoingMailOptions(db),
    });
    const user = await createTestUser(db, 'sender');
    const { send } = await records.record(senderOf(user), request, { queuePrefix });
    const outcome = await delivery.deliver({ sendId: send.id }, new FakeAttempt());
    return { user, provider, outcome, sendId: send.id, record: await deliveryRecord(db, send.id) };
  }

  test('a send to several recipients goes out as one message, each of them in its envelope, Bcc in none of its headers', async () => {
    const [ann, ben, cat, dan] = ['ann', 'ben', 'cat', 'dan'].map(recipient);
    const { user, provider, outcome, sendId, record } = await delivered(sendRequest({ to: [ann, ben], cc: [cat], bcc: [dan] }));
    assert.deepEqual(outcome, JOB_DONE);
    assert.equal(provider.taken.length, 1);
    const [message] = provider.taken;
    assert.deepEqual(outgoingMailOptions(db).bounceAddresses.parse(message.from), { sendId }, 'from the send’s bounce address');
    assert.ok(message.from.endsWith(`@${user.domain}`));
    assert.match(message.raw, new RegExp(`^From: .*<${user.email}>`, 'm'), 'the From header stays the sender’s');
    assert.deepEqual(message.recipients, [ann, ben, cat, dan]);
    assert.deepEqual(await headersOf(message.raw), { to: [ann, ben], cc: [cat], bcc: [], messageId: message.messageId });
    assert.equal(record.status, 'sent');
    assert.equal(record.attempts, 1);
    assert.deepEqual(record.deliveredTo, ['*']);
    assert.equal(record.lastError, null);
    assert.ok(record.sentAt);
  });

  test('a send separately goes out as one message per recipient, each showing only them, all with the send’s Message-ID', async () => {
    const [ann, ben, cat] = ['ann', 'ben', 'cat'].map(recipient);
    const { provider, outcome, record } = await delivered(sendRequest({ to: [ann, ben], cc: [cat], sendSeparately: true }));
    assert.deepEqual(outcome, JOB_DONE);
    assert.deepEqual(
      provider.taken.map((message) => message.recipients),
      [[ann], [ben], [cat]],
    );
    const { bounceAddresses } = outgoingMailOptions(db);
    assert.deepEqual(
      provider.taken.map((message) => bounceAddresses.parse(message.from)?.recipientIndex),
      [0, 1, 2],
      'each bounce address names its recipient',
    );
    for (const message of provider.taken) {
      assert.deepEqual(await headersOf(message.raw), { to: message.recipients, cc: [], bcc: [], messageId: provider.taken[0].messageId });
    }
    assert.equal(record.status, 'sent');
    assert.deepEqual(record.deliveredTo, [ann, ben, cat]);
  });

  test('Letterbox’s own users get a send through Colleagues, never through the provider; the others through the provider', async () => {
    const [outsider, colleague, otherColleague] = ['out', 'col', 'col2'].map(recipient);
    const colleagues = new FakeColleagues([colleague, otherColleague]);
    const { provider, outcome, record } = await delivered(sendRequest({ to: [outsider, colleague], cc: [otherColleague] }), colleagues);
    assert.deepEqual(outcome, JOB_DONE);
    assert.deepEqual(
      provider.taken.map((message) => message.recipients),
      [[outsider]],
    );
    assert.deepEqual(
      colleagues.delivered.map((message) => message.recipients),
      [[colleague, otherColleague]],
    );
    // Both messages show the send's recipients as the sender wrote them.
    const shown = { to: [outsider, colleague], cc: [otherColleague], bcc: [], messageId: provider.taken[0].messageId };
    assert.deepEqual(await headersOf(provider.taken[0].raw), shown);
    assert.deepEqual(await headersOf(colleagues.delivered[0].raw), shown);
    assert.equal(record.status, 'sent');
    assert.deepEqual(record.deliveredTo, ['*', 'colleagues']);
  });

  test('in a send separately, each of Letterbox’s own users gets their message through Colleagues', async () => {
    const [outsider, colleague] = ['out', 'col'].map(recipient);
    const colleagues = new FakeColleagues([colleague]);
    const { provider, record } = await delivered(sendRequest({ to: [outsider, colleague], sendSeparately: true }), colleagues);
    assert.deepEqual(
      provider.taken.map((message) => message.recipients),
      [[outsider]],
    );
    assert.deepEqual(
      colleagues.delivered.map((message) => message.recipients),
      [[colleague]],
    );
    assert.deepEqual((await headersOf(colleagues.delivered[0].raw)).to, [colleague]);
    assert.deepEqual(record.deliveredTo, [outsider, colleague]);
  });

  test('a send only to Letterbox’s own users reaches no provider', async () => {
    const colleague = recipient('col');
    const colleagues = new FakeColleagues([colleague]);
    const { provider, outcome, record } = await delivered(sendRequest({ to: [colleague] }), colleagues);
    assert.deepEqual(outcome, JOB_DONE);
    assert.deepEqual(provider.handedOver, []);
    assert.equal(colleagues.delivered.length, 1);
    assert.equal(record.status, 'sent');
    assert.deepEqual(record.deliveredTo, ['colleagues']);
  });

  test('a colleague whose mailbox is full refuses for good: recorded as refused, the others still get the send', async () => {
    const [outsider, colleague] = ['out', 'full'].map(recipient);
    const colleagues = new FakeColleagues([colleague], [colleague]);
    const { provider, outcome, record } = await delivered(sendRequest({ to: [outsider, colleague], sendSeparately: true }), colleagues);
    assert.deepEqual(outcome, JOB_DONE);
    assert.deepEqual(
      provider.taken.map((message) => message.recipients),
      [[outsider]],
    );
    assert.equal(record.status, 'sent');
    assert.deepEqual(record.refusedTo, [colleague]);
    assert.equal(record.lastError, `refused for good: ${colleague}`);
  });
});
