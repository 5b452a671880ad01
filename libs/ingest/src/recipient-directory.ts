import type { Pool } from 'pg';

export interface ResolvedRecipients {
  /** Lower-cased address → user id, for the addresses that are Letterbox users. */
  known: Map<string, number>;
  unknown: string[];
}

/** Which addresses are Letterbox users: what intake checks before it accepts a recipient. */
export class RecipientDirectory {
  constructor(private readonly sql: Pool) {}

  async resolve(addresses: string[]): Promise<ResolvedRecipients> {
    const wanted = [...new Set(addresses.map((address) => address.trim().toLowerCase()))];
    const { rows } = await this.sql.query<{ id: number; email: string }>({
      name: 'recipients-by-email',
      text: 'SELECT id, email FROM users WHERE email = ANY($1::text[])',
      values: [wanted],
    });
    const known = new Map(rows.map((row) => [row.email, row.id]));
    return { known, unknown: wanted.filter((address) => !known.has(address)) };
  }
}
