import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import type { JobQueues } from '@letterbox/queue';
import {
  accessTokenFor,
  createTestUser,
  deliveryWorkerEnv,
  type SendApiProcess,
  SendClient,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  storedSentCopy,
  testQueues,
  type TestUser,
} from '@letterbox/testing';
import { startTestWorker, type TestWorker } from './testing/delivery-workers';

/**
 * The Sent copy is the delivery worker's to store, from the recorded request. Its job is
 * taken out of Redis here, as a Redis that lost its data would: the copy must still be
 * stored, by the delivery before it sends, or by the sweep for a send not going out yet.
 */
describe('Sent copies stored by the delivery worker', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: SendApiProcess;
  let queues: JobQueues;
  let worker: TestWorker | undefined;
  let sender: TestUser;
  let client: SendClient;
  const recipient = (name: string) => `${name}.${randomUUID().slice(0, 8)}@copies.test`;
  const lost: { receipts?: { id: number; to: string[] }; scheduled?: { id: number; mailId: number } } = {};

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 20, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    queues = testQueues(queuePrefix);
    sender = await createTestUser(db, 'copies');
    client = new SendClient(api.url, accessTokenFor(sender));
  });

  after(async () => {
    await worker?.close();
    await queues?.close();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  async function sendWithoutCopyJob(body: Record<string, unknown>): Promise<{ id: number; sentMailId: number }> {
    const answer = await client.send(body);
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.ok(answer.body.sentMailId, 'the copy’s mail id is in the answer');
    await queues.remove('store-sent-copies', { sendIds: [answer.body.id] });
    assert.equal(await queues.has('store-sent-copies', { sendIds: [answer.body.id] }), false);
    return { id: answer.body.id, sentMailId: answer.body.sentMailId };
  }

  test('before any worker runs: two sends whose copy jobs are lost', async () => {
    const to = [recipient('first'), recipient('second')];
    lost.receipts = { id: (await sendWithoutCopyJob({ to, subject: 'With receipts', text: 'read me', requestReadReceipt: true })).id, to };
    const scheduled = await sendWithoutCopyJob({ to: [recipient('later')], subject: 'Later', text: 'in an hour', sendAt: new Date(Date.now() + 3_600_000).toISOString() });
    lost.scheduled = { id: scheduled.id, mailId: scheduled.sentMailId };
    // Older than the sweep's grace: left to the sweep, not to a job that might still run.
    await db.sql.query(`UPDATE outbound_sends SET requested_at = now() - interval '2 minutes' WHERE id = $1`, [scheduled.id]);
    worker = await startTestWorker(deliveryWorkerEnv(queuePrefix, mock.port));
  });

  test('a delivery stores its send’s copy first: each recipient’s receipt image names a key the copy has', async () => {
    const { id, to } = lost.receipts ?? assert.fail('the first test ran');
    const sent = await client.until(id, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const copy = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(sent.sentMailId ?? 0) }, include: { readReceipts: true } });
    assert.equal(copy.mailboxId, sender.mailboxes.sent);
    assert.deepEqual(copy.readReceipts.map((receipt) => receipt.recipientEmail).sort(), [...to].sort());
    for (const receipt of copy.readReceipts) {
      const [delivered] = mock.messages({ to: receipt.recipientEmail });
      assert.ok(delivered.raw.toString('latin1').includes(receipt.certKey), `${receipt.recipientEmail}'s image names its key`);
      assert.ok(delivered.raw.includes(copy.messageId), 'the copy carries the delivered Message-ID');
    }
  });

  test('a scheduled send’s copy whose job is lost is stored by the sweep, in Sent, while the send waits', async () => {
    const { id, mailId } = lost.scheduled ?? assert.fail('the first test ran');
    const copy = await storedSentCopy(db, mailId);
    assert.equal(copy.mailboxId, sender.mailboxes.sent);
    assert.equal(copy.subject, 'Later');
    assert.equal((await client.current(id)).status, 'queued');
    const { rows } = await db.sql.query<{ sent_copy_pending: boolean }>('SELECT sent_copy_pending FROM outbound_sends WHERE id = $1', [id]);
    assert.equal(rows[0].sent_copy_pending, false);
  });
});
