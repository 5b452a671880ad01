import { ConfigError } from '@letterbox/config';
import { readTlsKeyPair, type SmtpTls, type TlsKeyPairFiles } from '@letterbox/ingest';
import type { IngestConfig } from './ingest.config';

/**
 * The SMTP listener's TLS as set, its certificate and key read now; undefined without
 * them. Stops the app, naming the settings, when REQUIRE_TLS or SMTPS_PORT is set without
 * a certificate, or when the key is not the certificate's (loadConfig has checked that
 * each file reads and is PEM).
 */
export function smtpTlsSettings(config: IngestConfig): { files: TlsKeyPairFiles; tls: SmtpTls } | undefined {
  if (!config.INGEST_SMTP_TLS_CERT || !config.INGEST_SMTP_TLS_KEY) {
    const needing = [config.INGEST_SMTP_REQUIRE_TLS ? 'INGEST_SMTP_REQUIRE_TLS' : [], config.INGEST_SMTPS_PORT === undefined ? [] : 'INGEST_SMTPS_PORT'].flat();
    if (needing.length > 0)
      throw new ConfigError(`Invalid configuration:\n${needing.map((name) => `  ${name}: needs INGEST_SMTP_TLS_CERT and INGEST_SMTP_TLS_KEY`).join('\n')}`);
    return undefined;
  }
  const files = { certFile: config.INGEST_SMTP_TLS_CERT, keyFile: config.INGEST_SMTP_TLS_KEY };
  try {
    return { files, tls: { ...readTlsKeyPair(files), required: config.INGEST_SMTP_REQUIRE_TLS } };
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  INGEST_SMTP_TLS_KEY: not the key of the certificate in INGEST_SMTP_TLS_CERT (${(error as Error).message})`,
    );
  }
}
