import type { Pool } from 'pg';
import { publishedDkimRecords } from './published-dkim-records';
import type { DnsRecordSource } from '@letterbox/dns';

/** How long the keys read are answered before they are read again: a key made with `npm run admin -- dkim` is served within this. */
const REREAD_MS = 5000;

/**
 * The DKIM records of Letterbox's own domains, as an administrator would publish them,
 * read from the database: the demo's DNS serves them so that mail the delivery worker
 * signs verifies. Only `<selector>._domainkey.<domain>` names: the domains' other records
 * (SPF, DMARC, MX) are the demo zones'.
 */
export function publishedDkimSource(sql: Pool): DnsRecordSource {
  let read: { at: number; records: Promise<Map<string, string>> } | undefined;
  return async (name) => {
    if (!name.includes('._domainkey.')) return undefined;
    if (!read || Date.now() - read.at > REREAD_MS) {
      const records = publishedDkimRecords(sql);
      read = { at: Date.now(), records };
      // A failed read is not kept: the next query reads again.
      records.catch(() => (read = undefined));
    }
    const text = (await read.records).get(name);
    return text === undefined ? undefined : [{ type: 'TXT', text, ttl: 60 }];
  };
}
