import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '@letterbox/db';
import { SPOOLED_MESSAGE_BYTES } from '@letterbox/ingest';
import { BlobNotFoundError, type BlobStore } from '@letterbox/storage';
import { createTestUser, type RunningIngestServer, testBlobStore, testDatabase, testQueuePrefix, type TestUser, logFaultsAsExpected } from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

// Messages are refused and Redis is away on purpose here: those warnings are expected.
logFaultsAsExpected();

/** Nothing listens here: that ingest's Redis is down. */
const CLOSED_REDIS_URL = 'redis://127.0.0.1:6390';

describe('a message refused after it was written to storage', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let blobs: BlobStore;
  let ingest: RunningIngestServer;
  let ingestWithoutRedis: RunningIngestServer;
  let alice: TestUser;
  let smtp: Transporter;

  before(async () => {
    db = testDatabase();
    blobs = testBlobStore();
    // Messages stored as they came (no trace headers), so a file's key is its message's, and two messages' files can be one.
    const unchecked = { QUEUE_PREFIX: queuePrefix, INGEST_VERIFY_SENDERS: 'false' };
    ingest = await startIngestServer(unchecked);
    ingestWithoutRedis = await startIngestServer({ ...unchecked, REDIS_URL: CLOSED_REDIS_URL });
    alice = await createTestUser(db, 'alice');
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });
  });

  after(async () => {
    smtp?.close();
    await ingestWithoutRedis?.close();
    await ingest?.close();
    await db?.close();
  });

  const keyOf = (raw: string) => createHash('sha256').update(raw).digest('hex');
  const isStored = (raw: string) =>
    blobs.readRanges(keyOf(raw), [{ start: 0, end: 1 }]).then(
      () => true,
      (error: unknown) => (error instanceof BlobNotFoundError ? false : Promise.reject(error)),
    );
  const messageTo = (to: string) => `From: a@example.org\r\nTo: ${to}\r\nSubject: refused?\r\nMessage-ID: <${randomUUID()}@example.org>\r\n\r\nhello\r\n`;
  const notAMessage = () => `this is not a mail ${randomUUID()}\r\n\r\njust text\r\n`;

  test('over HTTP, a message for no Letterbox user leaves no file', async () => {
    const raw = messageTo(`nobody-${randomUUID()}@elsewhere.example`);
    const { status } = await ingest.post(raw);
    assert.equal(status, 422);
    assert.equal(await isStored(raw), false);
  });

  test('over HTTP, what is not a message leaves no file', async () => {
    const raw = notAMessage();
    const { status } = await ingest.post(raw, { to: [alice.email] });
    assert.equal(status, 422);
    assert.equal(await isStored(raw), false);
  });

  test('over SMTP, what is not a message leaves no file', async () => {
    const raw = notAMessage();
    await assert.rejects(smtp.sendMail({ envelope: { from: 'a@example.org', to: [alice.email] }, raw }), { responseCode: 554 });
    assert.equal(await isStored(raw), false);
  });

  test('with the queue unavailable, the message leaves no file and no acceptance', async () => {
    const raw = messageTo(alice.email);
    const { status } = await ingestWithoutRedis.post(raw);
    assert.equal(status, 503);
    assert.equal(await isStored(raw), false);
    const { rowCount } = await db.sql.query(`SELECT 1 FROM inbound_acceptances WHERE payload->>'storageKey' = $1`, [keyOf(raw)]);
    assert.equal(rowCount, 0, 'nothing is left for the sweep to queue');
  });

  // Larger than what is spooled, so both stream into blob storage: a small message accepted is in the spool until the worker stores it.
  test('the same bytes as a message accepted keep their file', async () => {
    const raw = messageTo(alice.email) + 'x'.repeat(SPOOLED_MESSAGE_BYTES);
    assert.equal((await ingest.post(raw)).status, 202);
    assert.equal((await ingestWithoutRedis.post(raw)).status, 503);
    assert.equal(await isStored(raw), true);
  });
});
