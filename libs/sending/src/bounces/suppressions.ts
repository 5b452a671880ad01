import type { Pool, PoolClient } from 'pg';
import { namedStatement } from '@letterbox/db';

export interface SuppressionRow {
  id: string;
  address: string;
  reason: string;
  send_id: string | null;
  created_at: Date;
}

const AMONG = namedStatement('suppressions-among', 'SELECT address FROM suppressions WHERE office_id = $1 AND address = ANY($2::text[])');
// The first bounce's reason and date stay: the list tells when the address first failed.
const ADD = namedStatement(
  'suppression-add',
  'INSERT INTO suppressions (office_id, address, reason, send_id) VALUES ($1, $2, $3, $4) ON CONFLICT (office_id, address) DO NOTHING',
);
const PAGE = namedStatement(
  'suppressions-page',
  `SELECT id, address, reason, send_id, created_at FROM suppressions
    WHERE office_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
);
const REMOVE = namedStatement(
  'suppression-remove',
  'DELETE FROM suppressions WHERE office_id = $1 AND id = $2 RETURNING id, address, reason, send_id, created_at',
);

/** The rows of `suppressions`: the addresses each office no longer sends to. */
export class Suppressions {
  constructor(private readonly sql: Pool) {}

  /** Which of these (lower-case) addresses the office does not send to. */
  async among(officeId: number, addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const { rows } = await this.sql.query<{ address: string }>({ ...AMONG, values: [officeId, addresses] });
    return new Set(rows.map((row) => row.address));
  }

  async add(officeId: number, address: string, reason: string, sendId: number): Promise<void> {
    await this.sql.query({ ...ADD, values: [officeId, address.toLowerCase(), reason.slice(0, 1000), sendId] });
  }

  /** Newest first, `limit` after the one whose id is `before`. */
  async page(officeId: number, before: number | undefined, limit: number): Promise<SuppressionRow[]> {
    const { rows } = await this.sql.query<SuppressionRow>({ ...PAGE, values: [officeId, before ?? null, limit] });
    return rows;
  }

  /** Takes the address off the list, within the caller's transaction (its audit record commits with it); undefined if the office has no such row. */
  async remove(client: PoolClient, officeId: number, id: number): Promise<SuppressionRow | undefined> {
    const { rows } = await client.query<SuppressionRow>({ ...REMOVE, values: [officeId, id] });
    return rows[0];
  }
}
