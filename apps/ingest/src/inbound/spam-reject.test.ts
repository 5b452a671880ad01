import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '@letterbox/db';
import { createTestUser, type RunningIngestServer, testDatabase, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

/** SPAM_REJECT on, against the rspamd scripts/setup.sh starts: rspamd's `reject` is refused before the sender hears "accepted". */
describe('SPAM_REJECT', () => {
  let db: Database;
  let ingest: RunningIngestServer;
  let bob: TestUser;
  let smtp: Transporter;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: testQueuePrefix(), SPAM_REJECT: 'true', INGEST_VERIFY_SENDERS: 'false' });
    bob = await createTestUser(db, 'spam-reject');
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });
  });

  after(async () => {
    smtp?.close();
    await ingest?.close();
    await db?.close();
  });

  const eml = (body: string) =>
    Buffer.from(`From: ann@outside.test\r\nTo: ${bob.email}\r\nSubject: hello\r\nMessage-ID: <${randomUUID()}@outside.test>\r\n\r\n${body}\r\n`);

  test('GTUBE over SMTP is refused with 550 5.7.1; everyday mail is accepted', async () => {
    const send = (raw: Buffer) => smtp.sendMail({ envelope: { from: 'ann@outside.test', to: [bob.email] }, raw });
    await assert.rejects(send(eml(GTUBE)), (error: { responseCode?: number; response?: string }) => {
      assert.equal(error.responseCode, 550);
      assert.match(error.response ?? '', /5\.7\.1 refused as spam/);
      return true;
    });
    assert.match(String((await send(eml('Lunch tomorrow?'))).response), /queued as/);
  });

  test('GTUBE over HTTP is a 422 naming why', async () => {
    const refused = await ingest.post(eml(GTUBE), { to: [bob.email] });
    assert.equal(refused.status, 422);
    assert.match(JSON.stringify(refused.body), /refused as spam/);
  });
});
