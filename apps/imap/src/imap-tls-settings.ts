import { ConfigError } from '@letterbox/config';
import { readTlsKeyPair, type TlsKeyPair, type TlsKeyPairFiles } from '@letterbox/mail-listeners';
import type { ImapConfig } from './imap.config';

/**
 * The certificate and key of STARTTLS and the IMAPS port, read now; undefined without them (loadImapConfig
 * allows that only with IMAP_ALLOW_PLAINTEXT). Stops the app, naming the setting, when the key is not the
 * certificate's (loadConfig has checked that each file reads and is PEM).
 */
export function imapTlsSettings(config: ImapConfig): { files: TlsKeyPairFiles; pair: TlsKeyPair } | undefined {
  if (!config.IMAP_TLS_CERT || !config.IMAP_TLS_KEY) return undefined;
  const files = { certFile: config.IMAP_TLS_CERT, keyFile: config.IMAP_TLS_KEY };
  try {
    return { files, pair: readTlsKeyPair(files) };
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  IMAP_TLS_KEY: not the key of the certificate in IMAP_TLS_CERT (${(error as Error).message})`);
  }
}
