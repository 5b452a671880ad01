import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import type { Database } from '@letterbox/db';
import {
  type AppProcess,
  createTestUser,
  inboxOf,
  type RunningIngestServer,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  type TestCertificate,
  type TestUser,
  waitFor,
  writeTestCertificate,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

const SWAKS = ['/usr/bin/swaks', '/usr/local/bin/swaks'].find((file) => existsSync(file));

/** The certificate a new connection is shown: after STARTTLS on `port`, or at once on an implicit-TLS one. */
async function presentedFingerprint(port: number, implicit: boolean): Promise<string> {
  const tls = implicit ? connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false }) : await startTls(port);
  try {
    if (implicit) await reply(tls, /^220 /m);
    // Said goodbye to, so that the server does not see a connection cut in its handshake.
    tls.write('QUIT\r\n');
    await reply(tls, /^221 /m);
    return tls.getPeerCertificate().fingerprint256;
  } finally {
    tls.destroy();
  }
}

/** A plain connection taken through EHLO and STARTTLS by hand, then handed to TLS. */
async function startTls(port: number): Promise<TLSSocket> {
  const socket = connectTcp(port, '127.0.0.1');
  await reply(socket, /^220 /m);
  socket.write('EHLO tls-test.example\r\n');
  await reply(socket, /^250 /m);
  socket.write('STARTTLS\r\n');
  await reply(socket, /^220 /m);
  const tls = connectTls({ socket, rejectUnauthorized: false });
  await once(tls, 'secureConnect');
  return tls;
}

async function reply(socket: Socket | TLSSocket, last: RegExp): Promise<string> {
  let text = '';
  while (!last.test(text)) {
    const [chunk] = await Promise.race([once(socket, 'data'), once(socket, 'close').then(() => assert.fail(`closed after ${JSON.stringify(text)}`))]);
    text += String(chunk);
  }
  return text;
}

describe('the SMTP listener over TLS', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let certificate: TestCertificate;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let alice: TestUser;

  const delivered = (messageId: string) =>
    waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(messageId) === 1, { what: `${messageId} in the inbox` });
  const raw = (messageId: string) => `From: sender@example.org\r\nTo: ${alice.email}\r\nSubject: over TLS\r\nMessage-ID: ${messageId}\r\n\r\nhello\r\n`;

  before(async () => {
    db = testDatabase();
    certificate = await writeTestCertificate();
    ingest = await startIngestServer({
      QUEUE_PREFIX: queuePrefix,
      INGEST_SMTP_TLS_CERT: certificate.certFile,
      INGEST_SMTP_TLS_KEY: certificate.keyFile,
      INGEST_SMTP_REQUIRE_TLS: 'true',
      INGEST_SMTPS_PORT: '0',
    });
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix });
    alice = await createTestUser(db, 'alice');
  });

  after(async () => {
    await worker?.stop();
    await ingest?.close();
    await db?.close();
  });

  test('a client doing STARTTLS, checking the certificate, delivers to the inbox', async () => {
    const messageId = `<starttls-${randomUUID()}@example.org>`;
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, requireTLS: true, tls: { ca: certificate.cert } });
    const info = await client.sendMail({ envelope: { from: 'sender@example.org', to: [alice.email] }, raw: raw(messageId) });
    assert.match(String(info.response), /^250 2\.0\.0 queued as/);
    await delivered(messageId);
  });

  test('the implicit-TLS port delivers too', async () => {
    const messageId = `<smtps-${randomUUID()}@example.org>`;
    assert.ok(ingest.smtpsPort);
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpsPort, secure: true, tls: { ca: certificate.cert } });
    await client.sendMail({ envelope: { from: 'sender@example.org', to: [alice.email] }, raw: raw(messageId) });
    await delivered(messageId);
  });

  test('with INGEST_SMTP_REQUIRE_TLS, MAIL FROM before STARTTLS is refused with 530', async () => {
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, ignoreTLS: true });
    await assert.rejects(client.sendMail({ envelope: { from: 'sender@example.org', to: [alice.email] }, raw: raw('<clear@example.org>') }), {
      responseCode: 530,
      response: '530 5.7.0 Must issue a STARTTLS command first',
    });
  });

  test('swaks with --tls delivers over STARTTLS', { skip: SWAKS ? false : 'swaks is not installed' }, async () => {
    const messageId = `<swaks-${randomUUID()}@example.org>`;
    const { stdout } = await promisify(execFile)(SWAKS as string, [
      ...['--server', '127.0.0.1', '--port', String(ingest.smtpPort), '--helo', 'swaks.example.org'],
      ...['--tls', '--tls-verify', '--tls-ca-path', certificate.certFile],
      ...['--from', 'sender@example.org', '--to', alice.email, '--header', `Message-Id: ${messageId}`],
    ]);
    assert.match(stdout, /TLS started/);
    assert.match(stdout, /<~ {1,2}250 2\.0\.0 queued as/);
    await delivered(messageId);
  });

  test('a renewed certificate is what new connections see, on both ports, without a restart', async () => {
    assert.equal(await presentedFingerprint(ingest.smtpPort, false), certificate.fingerprint);
    const renewed = await writeTestCertificate(path.dirname(certificate.certFile));
    assert.notEqual(renewed.fingerprint, certificate.fingerprint);
    await waitFor(async () => (await presentedFingerprint(ingest.smtpPort, false)) === renewed.fingerprint, { what: 'the renewed certificate after STARTTLS' });
    assert.equal(await presentedFingerprint(ingest.smtpsPort as number, true), renewed.fingerprint);
  });
});
