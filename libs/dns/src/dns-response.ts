import DNS from 'dns2';
import { UNANSWERED, type DnsRecord } from './dns-record-source';

const { Packet } = DNS;

type FindRecords = (name: string, type: string) => Promise<DnsRecord[] | typeof UNANSWERED | undefined>;

const DEFAULT_TTL_SECONDS = 300;
/** How long askers may keep "no such name" or "no such record" (RFC 2308: the SOA's TTL and MINIMUM). */
const NEGATIVE_TTL_SECONDS = 60;
/** The longest character-string a TXT record holds (RFC 1035 §3.3). */
const MAX_CHARACTER_STRING = 255;

/**
 * The authoritative answer to a query, or undefined when it is to be dropped. A name with
 * no records of the asked type answers its CNAME if it has one; negative answers carry the
 * SOA of the name's last two labels, which tells how long to keep them.
 */
export async function respond(request: DNS.Packet, find: FindRecords): Promise<DNS.Packet | undefined> {
  const response = Packet.createResponseFromRequest(request);
  response.header.aa = 1;
  const [question] = request.questions;
  if (!question) return withCode(response, Packet.RCODE.FORMERR);
  const name = question.name.toLowerCase().replace(/\.$/, '');
  const type = Packet.typeName(question.type);
  let records: Awaited<ReturnType<FindRecords>>;
  try {
    records = await find(name, type);
  } catch {
    return withCode(response, Packet.RCODE.SERVFAIL);
  }
  if (records === UNANSWERED) return undefined;
  if (records === undefined) return withSoa(withCode(response, Packet.RCODE.NXDOMAIN), name);
  const ofType = records.filter((record) => record.type === type);
  const answers = ofType.length > 0 ? ofType : records.filter((record) => record.type === 'CNAME');
  if (answers.length === 0) return withSoa(response, name);
  response.answers = answers.map((record) => resource(name, record));
  return response;
}

function withCode(response: DNS.Packet, rcode: number): DNS.Packet {
  response.header.rcode = rcode;
  return response;
}

function withSoa(response: DNS.Packet, name: string): DNS.Packet {
  const zone = name.split('.').slice(-2).join('.');
  response.authorities.push(
    Object.assign(new Packet.Resource(zone, Packet.TYPE.SOA, Packet.CLASS.IN, NEGATIVE_TTL_SECONDS), {
      primary: `ns.${zone}`,
      admin: `hostmaster.${zone}`,
      serial: 1,
      refresh: 3600,
      retry: 600,
      expiration: 86_400,
      minimum: NEGATIVE_TTL_SECONDS,
    }),
  );
  return response;
}

function resource(name: string, record: DnsRecord): DNS.Packet.Resource {
  const base = new Packet.Resource(name, Packet.TYPE[record.type], Packet.CLASS.IN, record.ttl ?? DEFAULT_TTL_SECONDS);
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return Object.assign(base, { address: record.address });
    case 'TXT':
      return Object.assign(base, { data: characterStrings(record.text) });
    case 'MX':
      return Object.assign(base, { exchange: record.exchange, priority: record.priority });
    case 'NS':
      return Object.assign(base, { ns: record.target });
    case 'CNAME':
    case 'PTR':
      return Object.assign(base, { domain: record.target });
  }
}

function characterStrings(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const strings: Buffer[] = [];
  for (let start = 0; start < bytes.length || strings.length === 0; start += MAX_CHARACTER_STRING) {
    strings.push(bytes.subarray(start, start + MAX_CHARACTER_STRING));
  }
  return strings;
}
