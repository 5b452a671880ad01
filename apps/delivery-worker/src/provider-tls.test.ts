import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  createTestUser,
  deliveryWorkerEnv,
  type SendApiProcess,
  SendClient,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  type TestCertificate,
  waitFor,
  writeTestCertificate,
  logFaultsAsExpected,
} from '@letterbox/testing';
import { startTestWorker } from './testing/delivery-workers';

// The provider's TLS fails on purpose here: the refusals' warnings are expected.
logFaultsAsExpected();

describe('the delivery worker and the provider’s TLS', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let certificate: TestCertificate;
  /** Offers STARTTLS with a certificate of the test's own; `plain` offers none. */
  let provider: MockSmtp;
  let plain: MockSmtp;
  let api: SendApiProcess;
  let client: SendClient;
  const recipient = (name: string) => `${name}.${randomUUID().slice(0, 8)}@provider-tls.test`;
  const quick = { port: 0, latencyMs: 0, ratePerSecond: 100_000, burst: 100_000 };

  /** Sends one mail through a worker of its own with these settings, stopped once the send is sent or an attempt has failed. */
  async function sendThrough(mock: MockSmtp, settings: Record<string, string>, to: string) {
    const worker = await startTestWorker(deliveryWorkerEnv(queuePrefix, mock.port, settings));
    try {
      const answer = await client.send({ to: [to], subject: 'Over TLS?', text: 'hello' });
      assert.equal(answer.status, 202);
      return await waitFor(
        async () => {
          const current = await client.current(answer.body.id);
          return (current.status === 'sent' || current.lastError !== null) && current;
        },
        { what: 'the send delivered or failed once' },
      );
    } finally {
      await worker.close();
    }
  }

  before(async () => {
    db = testDatabase();
    certificate = await writeTestCertificate();
    provider = await startMockSmtp({ ...quick, tls: { cert: certificate.cert, key: certificate.key } });
    plain = await startMockSmtp({ ...quick, tls: false });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    client = new SendClient(api.url, accessTokenFor(await createTestUser(db, 'tls-sender')));
  });

  after(async () => {
    await api?.close();
    await Promise.all([provider?.close(), plain?.close()]);
    await db?.close();
  });

  test('by default STARTTLS is used when offered, its self-signed certificate unchecked', async () => {
    const to = recipient('opportunistic');
    const sent = await sendThrough(provider, {}, to);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const [mail] = provider.messages({ to });
    assert.match(mail.tls?.protocol ?? 'in the clear', /^TLSv1\.[23]$/);
  });

  test('with SMTP_TLS_CA the certificate is checked against it, and SMTP_REQUIRE_TLS is met', async () => {
    const to = recipient('verified');
    const sent = await sendThrough(provider, { SMTP_TLS_CA: certificate.certFile, SMTP_REQUIRE_TLS: 'true' }, to);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    assert.ok(provider.messages({ to })[0].tls);
  });

  test('with SMTP_TLS_CA a certificate from elsewhere fails the attempt, and nothing is sent', async () => {
    const to = recipient('mismatch');
    const other = await writeTestCertificate();
    const failing = await sendThrough(provider, { SMTP_TLS_CA: other.certFile }, to);
    assert.notEqual(failing.status, 'sent');
    assert.match(failing.lastError ?? '', /certificate/i);
    assert.deepEqual(provider.messages({ to }), []);
  });

  test('with SMTP_REQUIRE_TLS a provider without STARTTLS is not sent to', async () => {
    const to = recipient('required');
    const failing = await sendThrough(plain, { SMTP_REQUIRE_TLS: 'true' }, to);
    assert.notEqual(failing.status, 'sent');
    // nodemailer asks for STARTTLS though it is not offered; the provider's refusal is the error.
    assert.match(failing.lastError ?? '', /^500 .*command not recognized/);
    assert.deepEqual(plain.messages({ to }), []);
  });
});
