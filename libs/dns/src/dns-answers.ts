export interface MxRecord {
  exchange: string;
  priority: number;
}

/** What dns.promises.resolve(name, type) answers, for each record type the resolver serves. */
export interface DnsAnswers {
  A: string[];
  AAAA: string[];
  CNAME: string[];
  MX: MxRecord[];
  NS: string[];
  PTR: string[];
  /** Each record as its character-strings (at most 255 octets each), as sent: a long record is their concatenation. */
  TXT: string[][];
}

export type DnsRecordType = keyof DnsAnswers;

export const DNS_RECORD_TYPES: readonly DnsRecordType[] = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'TXT'];

export const isDnsRecordType = (type: string): type is DnsRecordType => (DNS_RECORD_TYPES as readonly string[]).includes(type);

/**
 * mailauth's resolver: shaped like dns.promises.resolve, whose answer's type depends on rrtype
 * (DnsAnswers), and failing with node's error codes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's type follows rrtype, a string; mailauth declares it as narrower than it is (MX)
export type DnsResolve = (name: string, rrtype: string) => Promise<any>;
