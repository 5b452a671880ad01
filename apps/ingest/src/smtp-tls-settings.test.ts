import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '@letterbox/config';
import { writeTestCertificate } from '@letterbox/testing';
import { loadIngestConfig } from './ingest.config';
import { smtpTlsSettings } from './smtp-tls-settings';

const refusedWith = (pattern: RegExp) => (error: unknown) => error instanceof ConfigError && pattern.test(error.message);

test('a certificate and its key give STARTTLS, read at start', async () => {
  const certificate = await writeTestCertificate();
  const config = loadIngestConfig({ LETTERBOX_DEMO: 'true', INGEST_SMTP_TLS_CERT: certificate.certFile, INGEST_SMTP_TLS_KEY: certificate.keyFile });
  assert.deepEqual(smtpTlsSettings(config)?.tls, { cert: certificate.cert, key: certificate.key, required: false });
  assert.equal(smtpTlsSettings(loadIngestConfig({ LETTERBOX_DEMO: 'true' })), undefined);
});

test('a file that is not PEM stops the app, naming its setting', async () => {
  const certificate = await writeTestCertificate();
  writeFileSync(certificate.certFile, 'garbage');
  assert.throws(
    () => loadIngestConfig({ LETTERBOX_DEMO: 'true', INGEST_SMTP_TLS_CERT: certificate.certFile, INGEST_SMTP_TLS_KEY: certificate.keyFile }),
    refusedWith(/INGEST_SMTP_TLS_CERT: not a PEM certificate/),
  );
});

test("a key that is not the certificate's stops the app, naming the key setting", async () => {
  const [one, other] = await Promise.all([writeTestCertificate(), writeTestCertificate()]);
  const config = loadIngestConfig({ LETTERBOX_DEMO: 'true', INGEST_SMTP_TLS_CERT: one.certFile, INGEST_SMTP_TLS_KEY: other.keyFile });
  assert.throws(() => smtpTlsSettings(config), refusedWith(/INGEST_SMTP_TLS_KEY: not the key of the certificate in INGEST_SMTP_TLS_CERT/));
});

test('requiring TLS, or an SMTPS port, without a certificate stops the app, naming both', () => {
  const config = loadIngestConfig({ LETTERBOX_DEMO: 'true', INGEST_SMTP_REQUIRE_TLS: 'true', INGEST_SMTPS_PORT: '465' });
  assert.throws(
    () => smtpTlsSettings(config),
    refusedWith(/INGEST_SMTP_REQUIRE_TLS: needs INGEST_SMTP_TLS_CERT[\s\S]*INGEST_SMTPS_PORT: needs INGEST_SMTP_TLS_CERT/),
  );
});
