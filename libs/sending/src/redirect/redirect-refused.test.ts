import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import { workerConnection, type JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import {
  createTestUser,
  logFaultsAsExpected,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  testQueues,
  testSettings,
  unlinkKeys,
  type TestUser,
} from '@letterbox/testing';
import { readBounceReport } from '../bounces/delivery-status-report';
import { SendDelivery } from '../deliver/send-delivery';
import { SenderRateLimit } from '../deliver/sender-rate-limit';
import { SenderDirectory } from '../sender-directory';
import { SendOutbox } from '../submit/send-outbox';
import { SendSubmission } from '../submit/send-submission';
import { outgoingMailOptions } from '../testing/outgoing-mail-options';
import { FakeAttempt, TEST_QUOTA_BYTES } from '../testing/recorded-sends';
import { parseRecordedRequest } from '../submit/record-send';
import { MailRedirector, type RedirectedMail } from './mail-redirector';
import { RedirectFailureNotices } from './redirect-failure-notices';
import { SrsAddresses } from './srs-addresses';

// The provider refuses on purpose here: its warnings are expected.
logFaultsAsExpected();

interface RecordedSend {
  id: string;
  status: string;
  request: { to: string[]; subject: string; redirect: { storageKey: string; size: number; trace: string; envelopeFrom: string; bounceTo?: string } };
}

/**
 * A redirect the receiving server refuses for good (the mock provider answers 550 at RCPT): its original
 * sender gets a bounce (RFC 3464) from the null sender, once; mail from the null sender, automatic mail and
 * a bounce that is itself refused get none, so that no bounce answers a bounce.
 */
describe('a redirect refused for good', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const srs = new SrsAddresses('a-test-srs-secret-of-at-least-32-characters');
  let db: Database;
  let redis: RedisConnection;
  let queues: JobQueues;
  let mock: MockSmtp;
  let smtp: Transporter;
  let redirector: MailRedirector;
  let notices: RedirectFailureNotices;
  let delivery: SendDelivery;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    redis = workerConnection(testSettings());
    queues = testQueues(queuePrefix);
    mock = await startMockSmtp({ port: 0, latencyMs: 0 });
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: mock.port, secure: false, ignoreTLS: true });
    user = await createTestUser(db, 'redirecting');
    const outbox = new SendOutbox(db, queues);
    const senders = new SenderDirectory(
      async (userIds) =>
        userIds.map((userId) => (userId === user.id ? { email: user.email, displayName: user.displayName, addresses: [user.email] } : undefined)),
      { maxSize: 10, maxWaitMs: 0 },
    );
    const submission = new SendSubmission({ db, blobs, mails: new MailQueries(primaryOnly(db.sql)), outbox, queuePrefix, defaultQuotaBytes: TEST_QUOTA_BYTES });
    redirector = new MailRedirector(db.sql, senders, submission, srs);
    notices = new RedirectFailureNotices(db, blobs, outbox, queuePrefix);
    delivery = new SendDelivery(db, blobs, smtp, new SenderRateLimit(redis, 1000, 1000, queuePrefix), {
      readApiPublicUrl: 'http://read.test',
      ...outgoingMailOptions(db),
      redirectFailures: notices,
    });
  });

  after(async () => {
    smtp.close();
    await mock.close();
    await queues.close();
    await unlinkKeys(redis, `${queuePrefix}:*`);
    redis.disconnect();
    await db.close();
  });

  const address = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;

  /** A mail as the ingest's redirect stage hands it over, redirected by the user's rule to `to`, which the provider refuses. */
  async function redirectRefused(to: string, mail: { envelopeFrom: string; autoSubmitted?: boolean; headers?: string }): Promise<RecordedSend> {
    const subject = `Figures ${randomUUID().slice(0, 8)}`;
    const eml = `From: Ann <ann@vendor.example>\r\nTo: ${user.email}\r\nSubject: ${subject}\r\n${mail.headers ?? ''}Message-ID: <${randomUUID()}@vendor.example>\r\n\r\nThe figures.\r\n`;
    const stored = await blobs.put(Buffer.from(eml));
    const redirected: RedirectedMail = {
      inboundId: randomUUID(),
      storageKey: stored.key,
      size: stored.size,
      subject,
      envelopeFrom: mail.envelopeFrom,
      hops: 0,
      autoSubmitted: mail.autoSubmitted ?? false,
    };
    mock.configure({ refusedRecipients: [...mock.config().refusedRecipients, to] });
    assert.deepEqual(await redirector.redirect(user.id, redirected, [to]), [{ to, redirected: true }]);
    const [send] = await sendsTo(to);
    const outcome = await delivery.deliver({ sendId: Number(send.id) }, new FakeAttempt());
    assert.equal('outcome' in outcome && outcome.outcome, 'failed');
    return send;
  }

  async function sendsTo(to: string): Promise<RecordedSend[]> {
    const { rows } = await db.sql.query<RecordedSend>(
      "SELECT id::text, status, request FROM outbound_sends WHERE user_id = $1 AND request->'to' ? $2 ORDER BY id",
      [user.id, to],
    );
    return rows;
  }

  test('the original sender gets a DSN from the null sender, naming the refused address and the reply, with the mail’s header; once', async () => {
    const [original, boss] = [address('ann'), address('boss')];
    const redirect = await redirectRefused(boss, { envelopeFrom: original });
    assert.equal(redirect.request.redirect.bounceTo, original);

    const bounces = await sendsTo(original);
    assert.equal(bounces.length, 1);
    const [bounce] = bounces;
    assert.deepEqual({ trace: bounce.request.redirect.trace, envelopeFrom: bounce.request.redirect.envelopeFrom }, { trace: '', envelopeFrom: '' });
    assert.equal(bounce.request.redirect.bounceTo, undefined, 'a bounce refused in its turn tells no one');

    // A run of the refused redirect cut short after telling, tried again, tells no one twice.
    const request = parseRecordedRequest(
      Number(redirect.id),
      (await db.sql.query('SELECT request FROM outbound_sends WHERE id = $1', [redirect.id])).rows[0].request,
    );
    const sender = { userId: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName };
    await notices.tell({ sendId: Number(redirect.id), sender, request, redirect: redirect.request.redirect, recipients: [boss], reply: '550 5.1.1 again' });
    assert.equal((await sendsTo(original)).length, 1);

    await delivery.deliver({ sendId: Number(bounce.id) }, new FakeAttempt());
    const caught = mock.messages().filter((mail) => mail.envelope.to.includes(original));
    assert.equal(caught.length, 1);
    assert.equal(caught[0].envelope.from, '', 'from the null sender');
    const raw = caught[0].raw.toString();
    assert.match(raw, new RegExp(`^From: Mail Delivery System <MAILER-DAEMON@${user.domain.replaceAll('.', '\\.')}>`, 'm'));
    assert.match(raw, /^Auto-Submitted: auto-replied/m);
    assert.match(raw, /^Content-Type: multipart\/report; report-type=delivery-status;/m);
    assert.ok(
      raw.includes(
        `\r\nContent-Type: text/rfc822-headers\r\nContent-Transfer-Encoding: 8bit\r\n\r\nFrom: Ann <ann@vendor.example>\r\nTo: ${user.email}\r\nSubject: ${redirect.request.subject}\r\n`,
      ),
      'the returned header',
    );
    const report = readBounceReport(caught[0].raw);
    assert.equal(report.kind, 'dsn');
    assert.deepEqual(report.kind === 'dsn' && report.recipients.map(({ recipient, action, status }) => ({ recipient, action, status })), [
      { recipient: boss, action: 'failed', status: '5.1.1' },
    ]);
    assert.match(report.kind === 'dsn' ? report.recipients[0].diagnostic : '', new RegExp(`^550 5\\.1\\.1 <${boss}>: no such mailbox`));
  });

  test('a bounce that is itself refused, mail from the null sender, and automatic mail: no one is told', async () => {
    const [sender, boss] = [address('gone'), address('boss')];
    mock.configure({ refusedRecipients: [...mock.config().refusedRecipients, sender] });
    await redirectRefused(boss, { envelopeFrom: sender });
    const [bounce] = await sendsTo(sender);
    const outcome = await delivery.deliver({ sendId: Number(bounce.id) }, new FakeAttempt());
    assert.equal('outcome' in outcome && outcome.outcome, 'failed');
    assert.equal((await sendsTo(sender)).length, 1, 'no bounce of the bounce');

    // Between two Letterbox users a redirect goes from the null sender: refused, it tells no one either.
    const fromNull = await redirectRefused(address('boss'), { envelopeFrom: '' });
    assert.equal(fromNull.request.redirect.bounceTo, undefined);
    const automatic = address('robot');
    const fromRobot = await redirectRefused(address('boss'), { envelopeFrom: automatic, autoSubmitted: true, headers: 'Auto-Submitted: auto-generated\r\n' });
    assert.equal(fromRobot.request.redirect.bounceTo, undefined);
    assert.deepEqual(await sendsTo(automatic), []);
    const { rows } = await db.sql.query('SELECT 1 FROM outbound_sends WHERE user_id = $1 AND idempotency_key IN ($2, $3)', [
      user.id,
      `redirect-refused:${fromNull.id}`,
      `redirect-refused:${fromRobot.id}`,
    ]);
    assert.deepEqual(rows, []);
  });
});
