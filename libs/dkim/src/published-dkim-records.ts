import type { Pool } from 'pg';
import type { DkimAlgorithm } from './dkim-key-pair';
import { dkimDnsName, dkimTxt } from './dns-records';

/**
 * The DKIM TXT record of every active key, by DNS name (`<selector>._domainkey.<domain>`): what
 * a DNS server serving the offices' domains answers. A record longer than 255 characters (an RSA
 * key's) goes out as several strings of one record (txtStrings), which readers join.
 */
export async function publishedDkimRecords(sql: Pool): Promise<Map<string, string>> {
  const { rows } = await sql.query<{ domain: string; selector: string; algorithm: DkimAlgorithm; public_key: string }>(
    `SELECT d.name AS domain, k.selector, k.algorithm, k.public_key
       FROM dkim_keys k JOIN domains d ON d.id = k.domain_id
      WHERE k.retired_at IS NULL
      ORDER BY d.name, k.selector`,
  );
  return new Map(rows.map((row) => [dkimDnsName(row.selector, row.domain), dkimTxt(row.algorithm, row.public_key)]));
}
