import type { Pool } from 'pg';
import { insertOffice } from '@letterbox/accounts';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { commandLineAct, recordAct } from '../admin-act';
import { DomainTakenError, UnknownOfficeError } from '../admin-errors';

export interface OfficeSummary {
  id: number;
  name: string;
  domain: string;
}

/** The offices of a deployment, as the operator's command line makes and names them (by a domain of theirs). */
export class Offices {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
  ) {}

  /** A new office with its first domain, recorded in the audit log as the command line's. */
  async create(office: { name: string; domain: string }): Promise<OfficeSummary> {
    const domain = office.domain.trim().toLowerCase();
    return inTransaction(this.sql, async (client) => {
      const { id } = await insertOffice(client, { name: office.name, domain }).catch((error: { code?: string }) => {
        if (error.code === '23505') throw new DomainTakenError(domain);
        throw error;
      });
      await recordAct(this.audit, client, commandLineAct(id), 'office.create', domain, { name: office.name });
      return { id, name: office.name, domain };
    });
  }

  /** The office that owns the domain, any of its domains. */
  async byDomain(domain: string): Promise<OfficeSummary> {
    const { rows } = await this.sql.query<OfficeSummary>({
      text: 'SELECT o.id, o.name, o.domain FROM domains d JOIN offices o ON o.id = d.office_id WHERE d.name = $1',
      values: [domain.trim().toLowerCase()],
    });
    if (!rows[0]) throw new UnknownOfficeError(domain);
    return rows[0];
  }

  async all(): Promise<OfficeSummary[]> {
    const { rows } = await this.sql.query<OfficeSummary>('SELECT id, name, domain FROM offices ORDER BY domain');
    return rows;
  }
}
