import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { loggerFor } from '@letterbox/observability';
import { watchTlsKeyPair, type TlsKeyPairFiles, type TlsKeyPairWatch } from './tls-key-pair';

/** How often the certificate files are looked at, and how long a renewal is given to write both. */
const CERTIFICATE_POLL_MS = 1000;
const CERTIFICATE_SETTLE_MS = 200;

/**
 * The SMTP listener, its implicit-TLS twin when there is an SMTPS port, and the watch that
 * gives both a renewed certificate: started and stopped together.
 */
export class SmtpListeners {
  private readonly smtps: SMTPServer | undefined;
  private readonly watch: TlsKeyPairWatch | undefined;

  constructor(
    private readonly smtp: SMTPServer,
    /** `logName`: whose errors these listeners log, e.g. smtp-intake. */
    options: { implicitTls: boolean; certificateFiles?: TlsKeyPairFiles; logName: string },
  ) {
    const logger = loggerFor(options.logName);
    this.smtps = options.implicitTls ? implicitTlsTwin(smtp) : undefined;
    const servers = [smtp, this.smtps].filter((server) => server !== undefined);
    for (const server of servers) server.on('error', (error) => logger.warn({ err: error }, 'SMTP server error'));
    if (options.certificateFiles) {
      this.watch = watchTlsKeyPair(options.certificateFiles, (pair) => servers.forEach((server) => server.updateSecureContext(pair)), {
        pollMs: CERTIFICATE_POLL_MS,
        settleMs: CERTIFICATE_SETTLE_MS,
      });
    }
  }

  /** Listens on both ports; answers the ports bound (the SMTPS one only with a twin). */
  async listen(host: string, smtpPort: number, smtpsPort: number | undefined): Promise<{ smtpPort: number; smtpsPort?: number }> {
    const bound = { smtpPort: await listen(this.smtp, host, smtpPort) };
    return this.smtps ? { ...bound, smtpsPort: await listen(this.smtps, host, smtpsPort ?? 0) } : bound;
  }

  /** Sessions in DATA finish first: what they acknowledge must still reach the queue. */
  async close(): Promise<void> {
    this.watch?.close();
    await Promise.all([this.smtp, this.smtps].map((server) => server && new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/**
 * The same listener for implicit TLS (SMTPS, RFC 8314): the same handlers, so the same
 * limits per client address, with TLS from the first byte.
 */
export function implicitTlsTwin(smtp: SMTPServer): SMTPServer {
  return new SMTPServer({ ...smtp.options, secure: true });
}

function listen(server: SMTPServer, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}
