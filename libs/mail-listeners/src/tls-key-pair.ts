import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { loggerFor } from '@letterbox/observability';

const logger = loggerFor('tls');

/** A certificate (with its chain) and its private key, PEM. */
export interface TlsKeyPair {
  cert: string;
  key: string;
}

/** Where a certificate and its key are. */
export interface TlsKeyPairFiles {
  certFile: string;
  keyFile: string;
}

/** Reads the pair; throws when a file is unreadable, not PEM, or the key is not the certificate's. */
export function readTlsKeyPair(files: TlsKeyPairFiles): TlsKeyPair {
  const pair = { cert: readFileSync(files.certFile, 'utf8'), key: readFileSync(files.keyFile, 'utf8') };
  createSecureContext(pair);
  return pair;
}

export interface TlsKeyPairWatch {
  close(): void;
}

/**
 * Gives `apply` the pair again each time its files change (a renewal), so that new
 * connections present it without a restart. Polled by stat, which sees a file replaced
 * by rename or a symbolic link swapped (certbot, Kubernetes secrets) as well as one
 * rewritten. Changes within `settleMs` are read once, so a renewal that writes the
 * certificate and then the key is not read half done. A pair that does not read well
 * is logged and the one in use kept.
 */
export function watchTlsKeyPair(files: TlsKeyPairFiles, apply: (pair: TlsKeyPair) => void, options: { pollMs: number; settleMs: number }): TlsKeyPairWatch {
  let pending: NodeJS.Timeout | undefined;
  const reload = () => {
    pending = undefined;
    try {
      apply(readTlsKeyPair(files));
      logger.info({ certFile: files.certFile }, 'TLS certificate reloaded');
    } catch (error) {
      logger.warn(
        { err: error, certFile: files.certFile, keyFile: files.keyFile },
        'the changed TLS certificate or key does not read well; the previous one stays in use',
      );
    }
  };
  const changed = (current: Stats, previous: Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.ino === previous.ino && current.size === previous.size) return;
    clearTimeout(pending);
    pending = setTimeout(reload, options.settleMs);
  };
  for (const file of [files.certFile, files.keyFile]) watchFile(file, { interval: options.pollMs, persistent: false }, changed);
  return {
    close() {
      clearTimeout(pending);
      for (const file of [files.certFile, files.keyFile]) unwatchFile(file, changed);
    },
  };
}
