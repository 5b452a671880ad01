import type { SmtpTls } from '@letterbox/ingest';
import { tlsKeyPairOf, type TlsKeyPairFiles } from '@letterbox/mail-listeners';
import type { IngestConfig } from './ingest.config';

/**
 * The SMTP listener's TLS as set, its certificate and key read now; undefined without
 * them. Stops the app, naming the settings, when REQUIRE_TLS or SMTPS_PORT is set without
 * a certificate, or when the key is not the certificate's.
 */
export function smtpTlsSettings(config: IngestConfig): { files: TlsKeyPairFiles; tls: SmtpTls } | undefined {
  const certificate = tlsKeyPairOf({
    cert: { name: 'INGEST_SMTP_TLS_CERT', value: config.INGEST_SMTP_TLS_CERT },
    key: { name: 'INGEST_SMTP_TLS_KEY', value: config.INGEST_SMTP_TLS_KEY },
    needingIt: [config.INGEST_SMTP_REQUIRE_TLS ? 'INGEST_SMTP_REQUIRE_TLS' : [], config.INGEST_SMTPS_PORT === undefined ? [] : 'INGEST_SMTPS_PORT'].flat(),
  });
  return certificate && { files: certificate.files, tls: { ...certificate.pair, required: config.INGEST_SMTP_REQUIRE_TLS } };
}
