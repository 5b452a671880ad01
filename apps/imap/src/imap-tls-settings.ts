import { ConfigError } from '@letterbox/config';
import { readTlsKeyPair, type TlsKeyPair, type TlsKeyPairFiles } from '@letterbox/ingest';
import type { ImapConfig } from './imap.config';

/**
 * The certificate and key of STARTTLS and the IMAPS port, read now; undefined without them. Stops the app,
 * naming the settings, when nobody could sign in (no certificate and no IMAP_ALLOW_PLAINTEXT), or when the key
 * is not the certificate's.
 */
export function imapTlsSettings(config: ImapConfig): { files: TlsKeyPairFiles; pair: TlsKeyPair } | undefined {
  if (!config.IMAP_TLS_CERT || !config.IMAP_TLS_KEY) {
    if (config.IMAP_ALLOW_PLAINTEXT) return undefined;
    throw new ConfigError('Invalid configuration:\n  IMAP_TLS_CERT: needed, with IMAP_TLS_KEY, unless IMAP_ALLOW_PLAINTEXT=true: IMAP signs in only over TLS');
  }
  const files = { certFile: config.IMAP_TLS_CERT, keyFile: config.IMAP_TLS_KEY };
  try {
    return { files, pair: readTlsKeyPair(files) };
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  IMAP_TLS_KEY: not the key of the certificate in IMAP_TLS_CERT (${(error as Error).message})`);
  }
}
