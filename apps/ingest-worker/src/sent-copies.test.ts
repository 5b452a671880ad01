import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import type { JobQueues, RunningWorker } from '@letterbox/queue';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  type SendApiProcess,
  SendClient,
  sleep,
  startDeliveryWorkerProcess,
  startSendApiProcess,
  storedSentCopy,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
} from '@letterbox/testing';
import { loadIngestWorkerConfig } from './ingest-worker.config';
import { startIngestWorker } from './start-ingest-worker';

/**
 * The Sent copy is the ingest worker's to store, from the recorded request. Its job is taken
 * out of Redis here, as a Redis that lost its data would: the copy must still be stored, by
 * the sweep, and a send with read receipts must not go out before its copy (and its keys) exist.
 */
describe('Sent copies stored by the ingest worker', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: SendApiProcess;
  let queues: JobQueues;
  let delivery: AppProcess | undefined;
  let worker: RunningWorker | undefined;
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
    await delivery?.stop();
    await queues?.close();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  /** A send whose copy job Redis lost, older than the sweep's grace: left to the sweep, not to a job that might still run. */
  async function sendWithoutCopyJob(body: Record<string, unknown>): Promise<{ id: number; sentMailId: number }> {
    const answer = await client.send(body);
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.ok(answer.body.sentMailId, 'the copy’s mail id is in the answer');
    await queues.remove('store-sent-copies', { sendIds: [answer.body.id] });
    assert.equal(await queues.has('store-sent-copies', { sendIds: [answer.body.id] }), false);
    await db.sql.query(`UPDATE outbound_sends SET requested_at = now() - interval '2 minutes' WHERE id = $1`, [answer.body.id]);
    return { id: answer.body.id, sentMailId: answer.body.sentMailId };
  }

  test('a send with read receipts whose copy is not stored does not go out', async () => {
    const to = [recipient('first'), recipient('second')];
    lost.receipts = { id: (await sendWithoutCopyJob({ to, subject: 'With receipts', text: 'read me', requestReadReceipt: true })).id, to };
    const scheduled = await sendWithoutCopyJob({
      to: [recipient('later')],
      subject: 'Later',
      text: 'in an hour',
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    lost.scheduled = { id: scheduled.id, mailId: scheduled.sentMailId };
    delivery = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port));
    // Long enough for the delivery worker to have taken it several times, and two outbox sweeps.
    await sleep(1500);
    assert.equal((await client.current(lost.receipts.id)).status, 'queued');
    for (const address of to) assert.deepEqual(mock.messages({ to: address }), [], `nothing went to ${address}`);
  });

  test('once the sweep stores its copy, it goes: each recipient’s receipt image names a key the copy has', async () => {
    worker = await startIngestWorker(loadIngestWorkerConfig({ ...process.env, QUEUE_PREFIX: queuePrefix, INGEST_SWEEP_MS: '200' }));
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

  test('a send without read receipts does not wait for its copy', async () => {
    await worker?.close();
    worker = undefined;
    const to = recipient('plain');
    const { id, sentMailId } = await sendWithoutCopyJob({ to: [to], subject: 'Plain', text: 'no receipts' });
    assert.equal((await client.until(id, ['sent', 'failed'])).status, 'sent');
    assert.equal(mock.messages({ to }).length, 1);
    assert.equal(await db.prisma.mail.count({ where: { id: BigInt(sentMailId) } }), 0, 'delivered before any worker stored its copy');
  });
});
