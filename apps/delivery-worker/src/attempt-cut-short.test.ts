import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database } from '@letterbox/db';
import { startMockProvidersHttp, startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  createTestUser,
  deliveryWorkerEnv,
  type SendApiProcess,
  SendClient,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
} from '@letterbox/testing';
import { startTestWorker, type TestWorker } from './testing/delivery-workers';

/**
 * A worker that crashed after the provider's 250 but before recording the delivery leaves
 * the message recorded as attempted, not delivered. These tests make that state (the
 * provider already has the message, the send says it was attempted) and start a worker.
 */
describe('a delivery attempt cut short after the provider accepted it', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let control: FastifyInstance;
  let controlUrl: string;
  let api: SendApiProcess;
  let sender: TestUser;
  let client: SendClient;
  let worker: TestWorker | undefined;

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 0, ratePerSecond: 100_000, burst: 100_000 });
    control = await startMockProvidersHttp(mock, { port: 0 });
    controlUrl = `http://127.0.0.1:${(control.server.address() as { port: number }).port}`;
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    sender = await createTestUser(db, 'cut-short');
    client = new SendClient(api.url, accessTokenFor(sender));
  });

  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });

  after(async () => {
    await api?.close();
    await control?.close();
    await mock?.close();
    await db?.close();
  });

  /** Records a send, has the provider accept its message as the crashed attempt did, and marks the attempt. */
  async function sendAcceptedBeforeACrash(to: string): Promise<number> {
    const answer = await client.send({ to: [to], subject: 'Once', text: 'only once' });
    const id = answer.body.id;
    const { rows } = await db.sql.query<{ message_id: string }>("SELECT request->>'messageId' AS message_id FROM outbound_sends WHERE id = $1", [id]);
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: mock.port, secure: false, ignoreTLS: true });
    await smtp.sendMail({ from: sender.email, to, subject: 'Once', text: 'only once', messageId: rows[0].message_id });
    smtp.close();
    await db.sql.query("UPDATE outbound_sends SET status = 'sending', attempts = 1, attempted_to = ARRAY['*'] WHERE id = $1", [id]);
    return id;
  }

  test('where the provider can be asked, the retry finds the message there and does not send it again', async () => {
    const to = `once-${randomUUID().slice(0, 8)}@example.test`;
    const id = await sendAcceptedBeforeACrash(to);
    worker = await startTestWorker(deliveryWorkerEnv(queuePrefix, mock.port, { SMTP_RECEIPTS_URL: controlUrl }));
    const done = await client.until(id, ['sent', 'failed']);
    assert.equal(done.status, 'sent');
    assert.equal(mock.messages({ to }).length, 1, 'the provider got it once');
  });

  test('the provider is asked past the latest 100 mails of a busy recipient', async () => {
    const to = `busy-${randomUUID().slice(0, 8)}@example.test`;
    const id = await sendAcceptedBeforeACrash(to);
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: mock.port, secure: false, ignoreTLS: true, pool: true });
    await Promise.all(Array.from({ length: 100 }, (_, index) => smtp.sendMail({ from: 'other@example.test', to, subject: `Later ${index}`, text: 'later' })));
    smtp.close();
    worker = await startTestWorker(deliveryWorkerEnv(queuePrefix, mock.port, { SMTP_RECEIPTS_URL: controlUrl }));
    const done = await client.until(id, ['sent', 'failed']);
    assert.equal(done.status, 'sent');
    assert.equal(mock.messages({ to }).length, 101, 'the provider got it once, and the 100 later mails');
  });
});
