import type { Pool } from 'pg';
import { z } from 'zod';
import { dmarcRecord, spfRecord } from '@letterbox/dkim';
import { UnknownDomainError } from '../admin-errors';
import { DKIM_KEY_COLUMNS, dkimKeySchema, dkimKeyView, txtRecordSchema, type DkimKeyRow } from './dkim-key-view';

/** What a domain publishes in its DNS for its mail to be trusted: its DKIM keys (retired ones shown as such), SPF and DMARC. */
export const domainDnsRecordsShape = { dkim: z.array(dkimKeySchema), spf: txtRecordSchema, dmarc: txtRecordSchema };
export const domainDnsRecordsSchema = z.object(domainDnsRecordsShape).meta({ id: 'DomainDnsRecords' });
export type DomainDnsRecordsView = z.infer<typeof domainDnsRecordsSchema>;

/** The DNS records of an office's domains, read from their keys and the deployment's SPF_SENDERS. */
export class DomainDnsRecords {
  constructor(
    private readonly sql: Pool,
    private readonly spfSenders: string,
  ) {}

  /** Every domain of the office's, by name. */
  async ofOffice(officeId: number): Promise<Map<string, DomainDnsRecordsView>> {
    const [domains, keys] = await Promise.all([
      this.sql.query<{ name: string }>({ text: 'SELECT name FROM domains WHERE office_id = $1', values: [officeId] }),
      this.sql.query<DkimKeyRow>({
        text: `SELECT ${DKIM_KEY_COLUMNS} FROM dkim_keys k JOIN domains d ON d.id = k.domain_id WHERE d.office_id = $1 ORDER BY k.created_at DESC, k.selector`,
        values: [officeId],
      }),
    ]);
    const records = new Map(domains.rows.map(({ name }) => [name, this.withoutKeys(name)]));
    for (const row of keys.rows) records.get(row.domain)?.dkim.push(dkimKeyView(row));
    return records;
  }

  async ofDomain(officeId: number, domain: string): Promise<DomainDnsRecordsView> {
    const name = domain.trim().toLowerCase();
    const records = (await this.ofOffice(officeId)).get(name);
    if (!records) throw new UnknownDomainError(name);
    return records;
  }

  /** A new domain's: SPF and DMARC, no DKIM key yet. */
  withoutKeys(domain: string): DomainDnsRecordsView {
    return { dkim: [], spf: spfRecord(domain, this.spfSenders), dmarc: dmarcRecord(domain) };
  }
}
