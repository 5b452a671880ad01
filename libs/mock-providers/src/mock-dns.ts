import { serveDns, type DnsRecordSource, type DnsServer } from '@letterbox/dns';
import { MOCK_DNS_ZONES, zoneTable } from './mock-dns-zones';

export interface MockDnsOptions {
  /** 0 picks a free port, the same for UDP and TCP. */
  port: number;
  host?: string;
  /**
   * Where the records come from, asked in turn; by default MOCK_DNS_ZONES. Another source (the
   * DKIM keys of Letterbox's own domains, say) goes beside it: `[ownKeys, zoneTable(MOCK_DNS_ZONES)]`.
   */
  zones?: DnsRecordSource[];
}

export type MockDns = DnsServer;

/** The demo's and tests' DNS: authoritative for the demo and test domains, over UDP and TCP. */
export function startMockDns(options: MockDnsOptions): Promise<MockDns> {
  const { port, host = '127.0.0.1', zones = [zoneTable(MOCK_DNS_ZONES)] } = options;
  return serveDns({ port, host, sources: zones });
}
