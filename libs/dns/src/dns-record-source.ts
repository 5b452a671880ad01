/** One record an authoritative server answers; `ttl` in seconds, 300 unless given. */
export type DnsRecord = { ttl?: number } & (
  | { type: 'A' | 'AAAA'; address: string }
  /** Any length: split into 255-octet character-strings on the wire, as long SPF and DKIM records are published. */
  | { type: 'TXT'; text: string }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'CNAME' | 'NS' | 'PTR'; target: string }
);

/** The query is dropped, as by a server that never answers: the asker waits for its timeout. */
export const UNANSWERED = 'unanswered';

/**
 * Where an authoritative server finds the records of a name (lower case, no final dot): all of them
 * (the server picks those of the asked type), [] for a name with none, undefined for a name the
 * source does not know, or UNANSWERED. The server asks its sources in turn; the first that knows the
 * name answers, and a name none knows does not exist (NXDOMAIN).
 */
export type DnsRecordSource = (
  name: string,
  type: string,
) => DnsRecord[] | typeof UNANSWERED | undefined | Promise<DnsRecord[] | typeof UNANSWERED | undefined>;
