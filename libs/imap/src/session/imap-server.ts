import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { loggerFor } from '@letterbox/observability';
import type { ReaderLimits } from '../protocol/command-reader';
import { encodeResponse, untagged } from '../protocol/response-format';
import type { ImapServices } from './command-handler';
import { ImapSession } from './imap-session';

const logger = loggerFor('imap');

/** What a session closing at shutdown is given to finish saying BYE before it is cut. */
const SHUTDOWN_GRACE_MS = 5000;

export interface ImapServerOptions {
  services: ImapServices;
  limits: ReaderLimits;
  idleTimeoutMs: number;
}

/**
 * The IMAP listeners: the port of STARTTLS and, with a certificate, the port of implicit TLS (RFC 8314), each
 * connection a session of its own. Both take the certificate current when the connection comes, so a renewal
 * needs no restart.
 */
export class ImapServer {
  private readonly sessions = new Set<ImapSession>();
  private readonly servers: Server[] = [];

  constructor(private readonly options: ImapServerOptions) {}

  /** Listens on `port`, and on `tlsPort` for implicit TLS; answers the ports bound (0 picks a free one). */
  async listen(host: string, port: number, tlsPort?: number): Promise<{ port: number; tlsPort?: number }> {
    const bound = { port: await this.listenOn(host, port, false) };
    return tlsPort === undefined ? bound : { ...bound, tlsPort: await this.listenOn(host, tlsPort, true) };
  }

  /** Stops accepting, says BYE to every session, and resolves once they are closed. */
  async close(): Promise<void> {
    const closing = this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    const sessions = [...this.sessions].map(
      (session) =>
        new Promise<void>((resolve) => {
          session.onClose(resolve);
          session.shutdown('Letterbox IMAP is shutting down');
        }),
    );
    const cut = setTimeout(() => this.sessions.forEach((session) => session.destroy()), SHUTDOWN_GRACE_MS);
    await Promise.all([...closing, ...sessions]);
    clearTimeout(cut);
  }

  private listenOn(host: string, port: number, implicitTls: boolean): Promise<number> {
    const server = createServer((socket) => void this.accept(socket, implicitTls));
    server.on('error', (error) => logger.warn({ err: error }, 'IMAP listener error'));
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  private async accept(plain: Socket, implicitTls: boolean): Promise<void> {
    // A response often goes out in two writes (a FETCH line, then its literal): with Nagle's algorithm the second
    // waits for the client's delayed ACK, 40 ms a command.
    plain.setNoDelay(true);
    const { services } = this.options;
    const clientAddress = plain.remoteAddress ?? 'unknown';
    const context = implicitTls ? services.tlsContext() : undefined;
    if (implicitTls && !context) {
      plain.destroy();
      return;
    }
    const socket = context ? new TLSSocket(plain, { isServer: true, secureContext: context }) : plain;
    socket.on('error', (error) => logger.debug({ err: error, clientAddress }, 'IMAP connection error'));
    // The socket stays paused until the session reads it: nothing the client sends meanwhile is lost.
    const release = await services.limits.connect(clientAddress).catch((error: unknown) => {
      logger.warn({ err: error, clientAddress }, 'IMAP connection limits unavailable');
      return null;
    });
    if (release === null) {
      socket.end(encodeResponse(untagged('BYE [UNAVAILABLE] Try again later')));
      return;
    }
    if (!release) {
      socket.end(encodeResponse(untagged('BYE [UNAVAILABLE] Too many connections from your address')));
      return;
    }
    if (socket.destroyed) {
      release();
      return;
    }
    const session = new ImapSession(socket, { ...this.options, secure: context !== undefined, clientAddress });
    this.sessions.add(session);
    session.onClose(() => {
      release();
      this.sessions.delete(session);
    });
    session.start();
  }
}
