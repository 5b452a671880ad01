import type { AddressInfo, Socket } from 'node:net';
import { isIPv6 } from 'node:net';
import DNS from 'dns2';
import { UNANSWERED, type DnsRecord, type DnsRecordSource } from './dns-record-source';
import { respond } from './dns-response';

export interface DnsServerOptions {
  /** 0 picks a free port, the same for UDP and TCP. */
  port: number;
  host?: string;
  /** Asked in turn for the records of each name; see DnsRecordSource. */
  sources: DnsRecordSource[];
}

/** An authoritative DNS server over UDP and TCP (for answers too large for UDP) on one port. */
export interface DnsServer {
  readonly port: number;
  /** Stops listening and cuts the open TCP connections. */
  close(): Promise<void>;
}

/** Attempts at finding a port free for both UDP and TCP when any is asked for. */
const PORT_ATTEMPTS = 5;

export async function serveDns(options: DnsServerOptions): Promise<DnsServer> {
  const { port, host = '127.0.0.1', sources } = options;
  const handle: DNS.DnsHandler = (request, send) => {
    // A source that fails answers SERVFAIL (in respond); a client gone before its answer is no matter.
    respond(request, (name, type) => findRecords(sources, name, type))
      .then((response) => response && send(response))
      .catch(() => undefined);
  };
  for (let attempt = 1; ; attempt++) {
    const tcp = DNS.createTCPServer(handle);
    const connections = openConnections(tcp);
    await new Promise<void>((resolve, reject) => tcp.once('error', reject).listen(port, host, () => resolve()));
    const tcpPort = (tcp.address() as AddressInfo).port;
    const udp = DNS.createUDPServer({ type: isIPv6(host) ? 'udp6' : 'udp4' });
    udp.on('request', handle);
    try {
      await new Promise<void>((resolve, reject) => udp.once('error', reject).bind(tcpPort, host, () => resolve()));
      return running(tcpPort, udp, tcp, connections);
    } catch (error) {
      await new Promise((resolve) => tcp.close(resolve));
      if (port !== 0 || attempt === PORT_ATTEMPTS || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}

function openConnections(tcp: DNS.TCPServer): Set<Socket> {
  const connections = new Set<Socket>();
  tcp.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  return connections;
}

function running(port: number, udp: DNS.UDPServer, tcp: DNS.TCPServer, connections: Set<Socket>): DnsServer {
  // Malformed queries and clients that reset are their business; unhandled, 'error' would end the process.
  for (const server of [udp, tcp]) {
    server.on('requestError', () => undefined);
    server.on('error', () => undefined);
  }
  let closed: Promise<void> | undefined;
  return {
    port,
    // Once: a process stopping on SIGINT and SIGTERM both closes it twice.
    close: () =>
      (closed ??= (async () => {
        for (const socket of connections) socket.destroy();
        await Promise.all([new Promise<void>((resolve) => udp.close(() => resolve())), new Promise((resolve) => tcp.close(resolve))]);
      })()),
  };
}

async function findRecords(sources: DnsRecordSource[], name: string, type: string): Promise<DnsRecord[] | typeof UNANSWERED | undefined> {
  for (const source of sources) {
    const found = await source(name, type);
    if (found !== undefined) return found;
  }
  return undefined;
}
