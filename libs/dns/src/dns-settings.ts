import { z } from 'zod';
import { isNameServer } from './name-servers';

/** How the apps look up SPF, DKIM and DMARC records, and anything else mail authentication asks DNS. */
export const dnsConfig = {
  /**
   * The DNS servers to ask, `host[:port]` comma-separated (IP addresses; IPv6 in brackets with a port), all asked
   * at once and the first answer taken. Unset or empty: the system's own (/etc/resolv.conf).
   */
  DNS_SERVERS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((server) => server.trim())
        .filter((server) => server !== ''),
    )
    .refine((servers) => servers.every(isNameServer), 'must be IP addresses with an optional port (1.1.1.1, 127.0.0.1:5354, [::1]:53), comma-separated'),
  /** How long one lookup may take, over UDP and the TCP retry of a truncated answer together; past it, ETIMEOUT. */
  DNS_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(2000),
  /** Answers kept in memory within their TTL, least recently used dropped first. */
  DNS_CACHE_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
};
