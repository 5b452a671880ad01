import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { writeTestCertificate, type TestCertificate } from '@letterbox/testing';
import { implicitTlsTwin } from '@letterbox/mail-listeners';
import { clearTextRefusal, smtpTlsOptions, type SmtpTls } from './smtp-tls';

/** A listener with the intake's TLS options, keeping the session of each message it takes. */
function sessionKeepingServer(tls: SmtpTls | undefined, sessions: SMTPServerSession[]): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    logger: false,
    ...smtpTlsOptions(tls),
    onMailFrom: (_address, session, callback) => callback(clearTextRefusal(tls, session.secure)),
    onData(stream, session, callback) {
      stream.resume();
      stream.once('end', () => {
        sessions.push(structuredClone({ secure: session.secure, tlsOptions: session.tlsOptions }) as SMTPServerSession);
        callback();
      });
    },
  });
}

function listen(server: SMTPServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port)));
}

const message = { envelope: { from: 'sender@example.org', to: ['someone@letterbox.test'] }, raw: 'Subject: hello\r\n\r\nhello\r\n' };

describe('the SMTP listener with a certificate', () => {
  let certificate: TestCertificate;
  const sessions: SMTPServerSession[] = [];
  const servers: SMTPServer[] = [];
  let port: number;
  let implicitPort: number;

  before(async () => {
    certificate = await writeTestCertificate();
    const smtp = sessionKeepingServer({ cert: certificate.cert, key: certificate.key, required: true }, sessions);
    servers.push(smtp, implicitTlsTwin(smtp));
    [port, implicitPort] = await Promise.all(servers.map(listen));
  });

  after(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

  test('after STARTTLS the session is secure, and tlsOptions give the protocol negotiated and the cipher', async () => {
    // TLS 1.2 with a CBC cipher: node's getCipher() calls that TLSv1.0, the cipher's oldest protocol.
    const client = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      requireTLS: true,
      tls: { ca: certificate.cert, maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-SHA' },
    });
    await client.sendMail(message);
    const session = sessions.at(-1);
    assert.equal(session?.secure, true);
    assert.deepEqual(session?.tlsOptions && [session.tlsOptions.version, session.tlsOptions.name], ['TLSv1.2', 'ECDHE-RSA-AES128-SHA']);
  });

  test('the implicit-TLS twin is secure from the first byte, with the same handlers', async () => {
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: implicitPort, secure: true, tls: { ca: certificate.cert } });
    await client.sendMail(message);
    const session = sessions.at(-1);
    assert.equal(session?.secure, true);
    assert.equal(session?.tlsOptions && session.tlsOptions.version, 'TLSv1.3');
  });

  test('with TLS required, MAIL FROM in the clear is refused with 530 5.7.0', async () => {
    const client = nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true });
    await assert.rejects(client.sendMail(message), (error: { responseCode?: number; response?: string }) => {
      assert.equal(error.responseCode, 530);
      assert.match(error.response ?? '', /^530 5\.7\.0 Must issue a STARTTLS command first/);
      return true;
    });
  });
});

test('without a certificate the listener offers no STARTTLS', async () => {
  const smtp = sessionKeepingServer(undefined, []);
  const port = await listen(smtp);
  try {
    const client = nodemailer.createTransport({ host: '127.0.0.1', port, requireTLS: true });
    await assert.rejects(client.sendMail(message), /STARTTLS/);
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
