import type { Server, Socket } from 'node:net';

/** How smtp-server writes a client's address in its session: IPv4 without the IPv6 prefix, lower case. */
const sessionAddress = (address = '') => address.replace(/^::ffff:/i, '').toLowerCase();

/**
 * The client sockets of a listener. smtp-server gives its handlers the session but never
 * the socket, and both cutting one connection mid-mail and closing at once (rather than
 * after smtp-server's 30 s grace period) need the socket.
 */
export class OpenSockets {
  private readonly sockets = new Set<Socket>();

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** The socket of the SMTP session with this client address and port. */
  of(session: { remoteAddress: string; remotePort: number }): Socket | undefined {
    for (const socket of this.sockets) {
      if (socket.remotePort === session.remotePort && sessionAddress(socket.remoteAddress) === session.remoteAddress) return socket;
    }
    return undefined;
  }

  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}
