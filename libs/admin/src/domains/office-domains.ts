import type { Pool } from 'pg';
import { z } from 'zod';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { recordAct, type AdminAct } from '../admin-act';
import { DomainTakenError } from '../admin-errors';
import { domainDnsRecordsShape, type DomainDnsRecords, type DomainDnsRecordsView } from '../dkim/domain-dns-records';

/** A domain, with the DNS records it should publish for its mail to be trusted. */
export const officeDomainSchema = z.object({ id: z.int(), name: z.string(), createdAt: z.string(), ...domainDnsRecordsShape }).meta({ id: 'OfficeDomain' });
export type OfficeDomain = z.infer<typeof officeDomainSchema>;
export const officeDomainListSchema = z.object({ domains: z.array(officeDomainSchema) }).meta({ id: 'OfficeDomainList' });

interface DomainRow {
  id: number;
  name: string;
  created_at: Date;
}

const view = (row: DomainRow, records: DomainDnsRecordsView): OfficeDomain => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  ...records,
});

/** The domains an office receives mail for; a domain belongs to one office only. */
export class OfficeDomains {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
    private readonly records: DomainDnsRecords,
  ) {}

  async list(officeId: number): Promise<OfficeDomain[]> {
    const [{ rows }, records] = await Promise.all([
      this.sql.query<DomainRow>({ text: 'SELECT id, name, created_at FROM domains WHERE office_id = $1 ORDER BY name', values: [officeId] }),
      this.records.ofOffice(officeId),
    ]);
    // A domain added between the two reads has no keys yet: its records are those of a domain without.
    return rows.map((row) => view(row, records.get(row.name) ?? this.records.withoutKeys(row.name)));
  }

  async add(act: AdminAct, domain: string): Promise<OfficeDomain> {
    const name = domain.trim().toLowerCase();
    return inTransaction(this.sql, async (client) => {
      const { rows } = await client
        .query<DomainRow>({ text: 'INSERT INTO domains (office_id, name) VALUES ($1, $2) RETURNING id, name, created_at', values: [act.officeId, name] })
        .catch((error: { code?: string }) => {
          if (error.code === '23505') throw new DomainTakenError(name);
          throw error;
        });
      await recordAct(this.audit, client, act, 'domain.create', name, { domainId: rows[0].id });
      return view(rows[0], this.records.withoutKeys(name));
    });
  }
}
