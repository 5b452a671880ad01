import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

export interface ResolvedRecipients {
  /** Lower-cased address → user id, for the addresses that are Letterbox users. */
  known: Map<string, number>;
  unknown: string[];
}

/** Entries kept before the cache starts again from empty. */
const MAX_CACHED = 100_000;

const BY_EMAIL = namedStatement('recipients-by-email', 'SELECT id, email FROM users WHERE email = ANY($1::text[])');

/**
 * Which addresses are Letterbox users: what intake checks before it accepts a recipient.
 * Answers are cached for `cacheMs`, so a burst of mail to the same people asks the
 * database once per address; a new user may be refused, and a deleted one accepted (and
 * then skipped by the ingest worker), for that long.
 */
export class RecipientDirectory {
  private readonly cache = new Map<string, { userId: number | undefined; until: number }>();

  constructor(
    private readonly sql: Pool,
    private readonly cacheMs = 10_000,
  ) {}

  async resolve(addresses: string[]): Promise<ResolvedRecipients> {
    const wanted = [...new Set(addresses.map((address) => address.trim().toLowerCase()))];
    const now = Date.now();
    const missing = wanted.filter((address) => !((this.cache.get(address)?.until ?? 0) > now));
    if (missing.length > 0) await this.lookUp(missing, now);
    const known = new Map<string, number>();
    const unknown: string[] = [];
    for (const address of wanted) {
      const userId = this.cache.get(address)?.userId;
      if (userId === undefined) unknown.push(address);
      else known.set(address, userId);
    }
    return { known, unknown };
  }

  private async lookUp(addresses: string[], now: number): Promise<void> {
    const { rows } = await this.sql.query<{ id: number; email: string }>({ ...BY_EMAIL, values: [addresses] });
    if (this.cache.size + addresses.length > MAX_CACHED) this.cache.clear();
    const found = new Map(rows.map((row) => [row.email, row.id]));
    for (const address of addresses) this.cache.set(address, { userId: found.get(address), until: now + this.cacheMs });
  }
}
