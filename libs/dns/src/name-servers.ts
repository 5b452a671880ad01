import { getServers } from 'node:dns';
import { isIP } from 'node:net';

export interface NameServer {
  host: string;
  port: number;
}

const DNS_PORT = 53;
/** `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]` or `[::1]:53`: node's own notation (dns.getServers answers in it). */
const WITH_PORT = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/;
const BRACKETED = /^\[([^\]]+)\]$/;

/** A server written `host[:port]`, or undefined when it is not an IP address with a valid port. */
export function parseNameServer(server: string): NameServer | undefined {
  const withPort = WITH_PORT.exec(server);
  const host = withPort ? (withPort[1] ?? withPort[2]) : (BRACKETED.exec(server)?.[1] ?? server);
  const port = withPort ? Number(withPort[3]) : DNS_PORT;
  return isIP(host) !== 0 && port >= 1 && port <= 65535 ? { host, port } : undefined;
}

export const isNameServer = (server: string) => parseNameServer(server) !== undefined;

/** The servers given, or, none given, the system's (read by node from /etc/resolv.conf at start). */
export function nameServers(servers: string[]): NameServer[] {
  const listed = servers.length > 0 ? servers : getServers();
  return listed.map((server) => {
    const parsed = parseNameServer(server);
    if (!parsed) throw new Error(`${server} is not a DNS server address (host[:port], an IP address)`);
    return parsed;
  });
}
