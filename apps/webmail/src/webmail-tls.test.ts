import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '@letterbox/config';
import { writeTestCertificate, type TestCertificate } from '@letterbox/testing';
import { loadWebmailConfig } from './webmail.config';
import { createWebmailServer } from './webmail-server';

/** A GET over HTTPS trusting only the test certificate: the status and headers. */
function get(url: string, ca: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers: { accept: 'text/html' } }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      })
      .on('error', reject);
  });
}

describe('the webmail over HTTPS', () => {
  let certificate: TestCertificate;
  let app: FastifyInstance;
  let url: string;

  before(async () => {
    certificate = await writeTestCertificate();
    const staticDir = mkdtempSync(path.join(tmpdir(), 'webmail-static-'));
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Letterbox</title>');
    const config = loadWebmailConfig({ WEBMAIL_STATIC_DIR: staticDir, WEBMAIL_TLS_CERT: certificate.certFile, WEBMAIL_TLS_KEY: certificate.keyFile });
    app = await createWebmailServer({
      staticDir: config.WEBMAIL_STATIC_DIR,
      readApiUrl: config.READ_API_URL,
      sendApiUrl: config.SEND_API_URL,
      eventStreams: { maxStreams: 10, maxStreamsPerClient: 10 },
      tls: { cert: certificate.cert, key: certificate.key },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  after(() => app.close());

  test('serves the SPA over TLS with its certificate, with HSTS beside its policy', async () => {
    const page = await get(`${url}/inbox`, certificate.cert);
    assert.equal(page.status, 200);
    assert.equal(page.headers['strict-transport-security'], 'max-age=31536000');
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
  });

  test('the mail frame and a missing file carry HSTS too', async () => {
    for (const address of [`${url}/mail-frame`, `${url}/no-such-file.js`]) {
      const answer = await get(address, certificate.cert);
      assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000', address);
    }
  });

  test('a certificate without its key, or a file that is none, is named at start', () => {
    assert.throws(
      () => loadWebmailConfig({ WEBMAIL_TLS_CERT: certificate.certFile }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /WEBMAIL_TLS_KEY: required with WEBMAIL_TLS_CERT/);
        return true;
      },
    );
    assert.throws(
      () => loadWebmailConfig({ WEBMAIL_TLS_CERT: certificate.keyFile, WEBMAIL_TLS_KEY: certificate.keyFile }),
      /WEBMAIL_TLS_CERT: not a PEM certificate/,
    );
  });
});
