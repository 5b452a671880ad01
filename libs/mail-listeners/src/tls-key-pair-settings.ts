import { ConfigError } from '@letterbox/config';
import { readTlsKeyPair, type TlsKeyPair, type TlsKeyPairFiles } from './tls-key-pair';

/** A listener's certificate and key settings as loaded (loadConfig has checked that each file reads and is PEM). */
export interface TlsKeyPairSettings {
  cert: { name: string; value: string | undefined };
  key: { name: string; value: string | undefined };
  /** The settings set that need a certificate (a required STARTTLS, an implicit-TLS port): named when it is missing. */
  needingIt: string[];
}

/**
 * A listener's certificate and key, read now; undefined without them. Stops the app, naming the settings, when one
 * that needs a certificate is set without it, or when the key is not the certificate's.
 */
export function tlsKeyPairOf({ cert, key, needingIt }: TlsKeyPairSettings): { files: TlsKeyPairFiles; pair: TlsKeyPair } | undefined {
  if (!cert.value || !key.value) {
    if (needingIt.length > 0)
      throw new ConfigError(`Invalid configuration:\n${needingIt.map((name) => `  ${name}: needs ${cert.name} and ${key.name}`).join('\n')}`);
    return undefined;
  }
  const files = { certFile: cert.value, keyFile: key.value };
  try {
    return { files, pair: readTlsKeyPair(files) };
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${key.name}: not the key of the certificate in ${cert.name} (${(error as Error).message})`);
  }
}
