import { UNANSWERED, type DnsRecord, type DnsRecordSource } from '@letterbox/dns';

/**
 * The names the mock DNS answers, and their records, for demos and tests without the internet.
 * 127.0.0.1, where `npm start` and the tests run, is the only address allowed to send for any of
 * them; 192.0.2.1 (TEST-NET-1, never this machine) stands for a sender elsewhere. The DKIM keys
 * of the outside domains are test keys whose private halves are in testing/dns-fixtures.
 */
export type ZoneTable = Record<string, DnsRecord[] | typeof UNANSWERED>;

const txt = (text: string): DnsRecord => ({ type: 'TXT', text });
const spf = (terms: string) => txt(`v=spf1 ${terms}`);
const dmarc = (tags: string) => txt(`v=DMARC1; ${tags}`);
const LOCAL_ONLY = spf('ip4:127.0.0.1 -all');

/** Published keys (base64 SubjectPublicKeyInfo for RSA, RFC 8463's raw 32 bytes for Ed25519); a test holds them to their private keys. */
export const TEST_DKIM_PUBLIC_KEYS = {
  'rsa2048._domainkey.pass.example':
    'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAruZ+sQ8QThNyLvXb4A+Rb58/N82jmaWqGvWI6I0+vCb4azBijJ+LcGsLnGAsKCiBYDm9gGr0ngV388LaQo0BmEsb5yND9mQ/tDkrm6ZuzhWvz3DjNJT/Txqcfb4/d6K/3PHN84EZIIC4kYZHYhYdvdFyptbsVSFR5RXriVIGU5LgD6VDMAZhxukABcjU7Mylu70465BD0bZW0tQAbzo9DsdLvarLQxETPtw6pGxdIvnwv6cZBycS+uwPCGgB9zYWmyo+DIHup8wjQ4olHXbAiHc9E3IVGp69DqKwp2TCcg43LJk/0uyajCQeJIMOwNzWs4ypvzSF8R/U/OyclF9aVwIDAQAB',
  'ed25519._domainkey.pass.example': 'O8Q9G5TATMCOyhKjgj4HhML5TOCgWNUfZviVnXkkkaQ=',
  'weak._domainkey.weak.example':
    'MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAKNLWsk+B+a2YMyDLofdFMboNv7uGHLbqjYHis/zPHfremQTjjssCXiVcCYWfDqd5Zdycp5r+EBO1vPykxsyM50CAwEAAQ==',
};

const dkim = (name: keyof typeof TEST_DKIM_PUBLIC_KEYS, keyType: 'rsa' | 'ed25519') => txt(`v=DKIM1; k=${keyType}; p=${TEST_DKIM_PUBLIC_KEYS[name]}`);

/** Exactly `length` characters: `head`, `filler` as many whole times as fit, spaces for the rest, then `tail`. */
function padded(head: string, filler: string, tail: string, length: number): string {
  const room = length - head.length - tail.length;
  return head + filler.repeat(Math.floor(room / filler.length)) + ' '.repeat(room % filler.length) + tail;
}

/** 10,000 characters of SPF: addresses that do not match, then this machine. */
export const BIG_SPF_RECORD = padded('v=spf1', ' ip4:198.51.100.7', '  ip4:127.0.0.1 -all', 10_000);
/** 10,000 characters of DKIM record whose key is no key. */
export const BIG_DKIM_RECORD = padded('v=DKIM1; k=rsa; p=', 'A', '', 10_000);

export const MOCK_DNS_ZONES: ZoneTable = {
  // The demo office's domain (libs/demo-data). Its DKIM keys are the offices' own, answered from the database by another source.
  'letterbox.test': [{ type: 'A', address: '127.0.0.1' }, { type: 'MX', exchange: 'mail.letterbox.test', priority: 10 }, LOCAL_ONLY],
  'mail.letterbox.test': [{ type: 'A', address: '127.0.0.1' }],
  '_dmarc.letterbox.test': [dmarc('p=quarantine; rua=mailto:dmarc-reports@letterbox.test')],
  '1.0.0.127.in-addr.arpa': [{ type: 'PTR', target: 'mail.letterbox.test' }],

  // Everything passes: SPF, DKIM with RSA and Ed25519 keys side by side, DMARC that would reject a forgery.
  'pass.example': [LOCAL_ONLY],
  'rsa2048._domainkey.pass.example': [dkim('rsa2048._domainkey.pass.example', 'rsa')],
  'ed25519._domainkey.pass.example': [dkim('ed25519._domainkey.pass.example', 'ed25519')],
  '_dmarc.pass.example': [dmarc('p=reject')],

  // Mail from here to this machine fails SPF, and DMARC's policy refuses it or puts it aside.
  'fail.example': [spf('ip4:192.0.2.1 -all')],
  '_dmarc.fail.example': [dmarc('p=reject')],
  'quarantine.example': [spf('ip4:192.0.2.1 -all')],
  '_dmarc.quarantine.example': [dmarc('p=quarantine')],
  'softfail.example': [spf('ip4:192.0.2.1 ~all')],

  // A DNS that never answers, for any name of the domain.
  'slow.example': UNANSWERED,
  '*.slow.example': UNANSWERED,

  // SPF including itself: loop.example includes b.loop.example, which includes loop.example.
  'loop.example': [spf('include:b.loop.example -all')],
  'b.loop.example': [spf('include:loop.example -all')],

  // Records too large for UDP: SPF that lists this machine after 10,000 characters, and a DKIM record as long.
  'big.example': [txt(BIG_SPF_RECORD)],
  'big._domainkey.big.example': [txt(BIG_DKIM_RECORD)],

  // SPF passes, but the DKIM key is 512 bits, too short to be trusted; DMARC only monitors.
  'weak.example': [LOCAL_ONLY],
  'weak._domainkey.weak.example': [dkim('weak._domainkey.weak.example', 'rsa')],
  '_dmarc.weak.example': [dmarc('p=none')],

  // SPF passes; no DMARC policy at all.
  'nopolicy.example': [LOCAL_ONLY],
};

/**
 * A record source answering from a table: a name's own entry, or else the wildcard `*.<domain>` of
 * the nearest domain above it that has one (RFC 4592), or undefined.
 */
export function zoneTable(table: ZoneTable): DnsRecordSource {
  return (name) => {
    if (Object.hasOwn(table, name)) return table[name];
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
      const wildcard = `*${name.slice(dot)}`;
      if (Object.hasOwn(table, wildcard)) return table[wildcard];
    }
    return undefined;
  };
}
