import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import type { Database } from '@letterbox/db';
import { ColleagueDelivery, createInboundIntake, RecipientDirectory } from '@letterbox/ingest';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  startDeliveryWorkerProcess,
  startIngestWorkerProcess,
  storedSentCopy,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

describe('mail between colleagues', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  let db: Database;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let delivery: AppProcess;
  let ingest: AppProcess;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let client: SendClient;

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 5, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix });
    delivery = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port));
    ingest = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' });
    alice = await createTestUser(db, 'colleague-alice');
    bob = await createTestUser(db, 'colleague-bob');
    carol = await createTestUser(db, 'colleague-carol');
    client = new SendClient(api.url, accessTokenFor(alice));
  });

  after(async () => {
    await delivery?.stop();
    await ingest?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  const inboxOf = async (user: TestUser, messageId: string) =>
    db.prisma.mail.findMany({ where: { userId: user.id, mailboxId: user.mailboxes.inbox, messageId } });

  test('colleagues get the mail in their Inbox from Letterbox; outside recipients of the same send through the provider', async () => {
    const outside = `zed.${randomUUID().slice(0, 8)}@outside.test`;
    const subject = `Lunch ${randomUUID()}`;
    const answer = await client.send({ to: [bob.email, outside], cc: [carol.email], subject, text: 'Noon?' });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const sent = await client.until(answer.body.id, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const copy = await storedSentCopy(db, sent.sentMailId);

    const atProvider = mock.messages().filter((message) => message.raw.includes(copy.messageId));
    assert.equal(atProvider.length, 1);
    assert.deepEqual(atProvider[0].envelope.to, [outside], 'the provider never sees the colleagues');

    for (const colleague of [bob, carol]) {
      await waitFor(async () => (await inboxOf(colleague, copy.messageId)).length === 1, { what: `${colleague.email}'s Inbox to have the mail` });
      const [mail] = await inboxOf(colleague, copy.messageId);
      assert.equal(mail.subject, subject);
      assert.equal(mail.fromAddress, alice.email);
      assert.equal(mail.seen, false);
    }
  });

  test("a colleague's mail handed over twice (a retried delivery) is stored once", async () => {
    const queues = testQueues(queuePrefix);
    try {
      const directory = new RecipientDirectory(db.sql);
      const colleagues = new ColleagueDelivery(
        directory,
        createInboundIntake({
          sql: db.sql,
          blobs,
          references: new DatabaseBlobReferences(db.sql),
          queues,
          maxMessageBytes: 1024 * 1024,
          defaultQuotaBytes: 1024 ** 3,
          directory,
        }),
      );
      assert.deepEqual(await colleagues.colleaguesAmong([bob.email, 'nobody@outside.test']), new Set([bob.email]));
      const messageId = `<twice-${randomUUID()}@letterbox.test>`;
      const message = () => Buffer.from(`From: ${alice.email}\r\nTo: ${bob.email}\r\nSubject: twice\r\nMessage-ID: ${messageId}\r\n\r\nonce\r\n`);
      await colleagues.deliver(Readable.from([message()]), [bob.email]);
      await colleagues.deliver(Readable.from([message()]), [bob.email]);
      await waitFor(async () => (await db.sql.query("SELECT 1 FROM inbound_acceptances WHERE payload->>'messageId' = $1", [messageId])).rowCount === 0, {
        what: 'both handed-over copies to be processed',
      });
      assert.equal((await inboxOf(bob, messageId)).length, 1);
    } finally {
      await queues.close();
    }
  });
});
