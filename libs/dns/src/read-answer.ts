import DNS from 'dns2';
import type { DnsAnswers, DnsRecordType } from './dns-answers';
import { dnsError, type DnsError, type DnsErrorCode } from './dns-error';

type Packet = DNS.Packet;
type Resource = DNS.Packet.Resource;

/** What a server said, for as long as it may be believed: the records, or that there are none (ENOTFOUND, ENODATA). */
export type LookupOutcome = { answer: DnsAnswers[DnsRecordType]; ttlSeconds: number } | { error: DnsError; ttlSeconds: number };

/** Longer TTLs are shortened: a record changed by its owner is seen within a day whatever it claimed. */
const MAX_TTL_SECONDS = 86_400;
/** "No such record" is kept briefly (RFC 2308 lets the zone's SOA say how long): a record being published shows soon. */
const MAX_NEGATIVE_TTL_SECONDS = 60;

const FAILURES: Partial<Record<number, DnsErrorCode>> = {
  [DNS.Packet.RCODE.FORMERR]: 'EFORMERR',
  [DNS.Packet.RCODE.SERVFAIL]: 'ESERVFAIL',
  [DNS.Packet.RCODE.NOTIMP]: 'ENOTIMP',
  [DNS.Packet.RCODE.REFUSED]: 'EREFUSED',
};

/**
 * The answer a response gives to `type` records of `name`, as dns.promises.resolve shapes it.
 * A failure to answer (SERVFAIL, REFUSED, a response that did not decode) is thrown: it says
 * nothing about the records, so it is neither an outcome nor kept.
 */
export function readAnswer(response: Packet, name: string, type: DnsRecordType): LookupOutcome {
  const { rcode } = response.header;
  if (rcode === DNS.Packet.RCODE.NXDOMAIN) return { error: dnsError('ENOTFOUND', type, name), ttlSeconds: negativeTtl(response) };
  if (rcode !== DNS.Packet.RCODE.NOERROR) throw dnsError(FAILURES[rcode] ?? 'EBADRESP', type, name);
  if (response.errors.length > 0) throw dnsError('EBADRESP', type, name);
  // A recursive server answers with the CNAME chain that led to the records; only the records are answered.
  const records = response.answers.filter((record) => record.type === DNS.Packet.TYPE[type]);
  if (records.length === 0) return { error: dnsError('ENODATA', type, name), ttlSeconds: negativeTtl(response) };
  const ttlSeconds = Math.min(MAX_TTL_SECONDS, ...records.map((record) => record.ttl));
  return { answer: shape(records, type), ttlSeconds };
}

function shape(records: Resource[], type: DnsRecordType): DnsAnswers[DnsRecordType] {
  switch (type) {
    case 'A':
    case 'AAAA':
      return records.map((record) => String(record.address));
    case 'CNAME':
    case 'PTR':
      return records.map((record) => String(record.domain));
    case 'NS':
      return records.map((record) => String(record.ns));
    case 'MX':
      return records.map((record) => ({ exchange: String(record.exchange), priority: Number(record.priority) }));
    case 'TXT':
      return records.map((record) => (Array.isArray(record.data) ? record.data.map(String) : [String(record.data)]));
  }
}

/** RFC 2308 §5: the lesser of the SOA record's TTL and its MINIMUM field; without an SOA, the longest we keep any. */
function negativeTtl(response: Packet): number {
  const soa = response.authorities.find((record) => record.type === DNS.Packet.TYPE.SOA);
  return soa ? Math.min(MAX_NEGATIVE_TTL_SECONDS, soa.ttl, Number(soa.minimum)) : MAX_NEGATIVE_TTL_SECONDS;
}
