import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  startDeliveryWorkerProcess,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

const SENDS = 20;

describe('send API and delivery worker with one database connection each', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let worker: AppProcess;
  let copyWorker: AppProcess;
  let sender: TestUser;
  let client: SendClient;

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 50, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix, DATABASE_POOL_SIZE: '1' });
    worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port, { DATABASE_POOL_SIZE: '1' }));
    copyWorker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1', DATABASE_POOL_SIZE: '1' });
    sender = await createTestUser(db, 'sender');
    client = new SendClient(api.url, accessTokenFor(sender));
  });

  after(async () => {
    await worker?.stop();
    await copyWorker?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  test(`${SENDS} concurrent sends with attachments and read receipts all answer 202 and are all delivered`, async () => {
    const run = randomUUID().slice(0, 8);
    const sends = Array.from({ length: SENDS }, (_, index) => ({
      to: [`a${index}.${run}@pool.test`, `b${index}.${run}@pool.test`],
      file: randomBytes(20_000 + index),
    }));
    const answers = await Promise.all(
      sends.map((send, index) =>
        client.sendMultipart({ to: send.to, subject: `Pool ${run} #${index}`, html: `<p>Send ${index}</p>`, requestReadReceipt: 'true' }, [
          { filename: `file-${index}.bin`, contentType: 'application/octet-stream', content: send.file },
        ]),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      answers.map(() => 202),
      JSON.stringify(answers.filter((answer) => answer.status !== 202).map((answer) => answer.body)),
    );
    const ids = answers.map((answer) => answer.body.id);
    const statuses = await waitFor(
      async () => {
        const all = await Promise.all(ids.map((id) => client.current(id)));
        return all.every((one) => one.status === 'sent' || one.status === 'failed') && all;
      },
      { timeoutMs: 25_000, what: 'every send to be sent' },
    );
    assert.deepEqual(
      statuses.map((one) => one.status),
      ids.map(() => 'sent'),
    );
    // Read receipts: one message per recipient, each with the attachment intact.
    for (const [index, send] of sends.entries()) {
      for (const address of send.to) {
        const delivered = mock.messages({ to: address });
        assert.equal(delivered.length, 1, `${address} got one message`);
        const parsed = await simpleParser(delivered[0].raw);
        assert.equal(parsed.subject, `Pool ${run} #${index}`);
        assert.ok(parsed.attachments[0]?.content.equals(send.file), `${address}: attachment intact`);
        assert.match(parsed.html || '', /receipt-confirm/);
      }
    }
    const { rows } = await db.sql.query<{ count: string }>(
      'SELECT count(*) FROM read_receipts r JOIN outbound_sends s ON s.sent_mail_id = r.mail_id WHERE s.id = ANY($1::bigint[])',
      [ids],
    );
    assert.equal(Number(rows[0].count), SENDS * 2, 'one receipt key per recipient');
  });
});
