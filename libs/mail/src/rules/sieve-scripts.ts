import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

const GET = namedStatement('sieve-scripts-get', 'SELECT script FROM sieve_scripts WHERE user_id = $1');
const PUT = namedStatement(
  'sieve-scripts-put',
  `INSERT INTO sieve_scripts (user_id, script) VALUES ($1, $2)
   ON CONFLICT (user_id) DO UPDATE SET script = EXCLUDED.script, updated_at = now()`,
);
const REMOVE = namedStatement('sieve-scripts-remove', 'DELETE FROM sieve_scripts WHERE user_id = $1');
const OF_USERS = namedStatement('sieve-scripts-of-users', 'SELECT user_id, script, updated_at FROM sieve_scripts WHERE user_id = ANY($1::int[])');

/** A user's script as the ingest runs it: its text, and when it last changed (what a compiled copy is kept by). */
export interface StoredSieveScript {
  script: string;
  updatedAt: Date;
}

/** Each user's rules, one Sieve script: the text as written, checked before it is stored (SaveSieveScript). */
export class SieveScripts {
  constructor(private readonly sql: Pool) {}

  /** The script, or the empty script when the user has none. */
  async get(userId: number): Promise<string> {
    const { rows } = await this.sql.query<{ script: string }>({ ...GET, values: [userId] });
    return rows[0]?.script ?? '';
  }

  /** An empty script (nothing but white space) is no script: the row goes. */
  async put(userId: number, script: string): Promise<void> {
    if (script.trim() === '') await this.sql.query({ ...REMOVE, values: [userId] });
    else await this.sql.query({ ...PUT, values: [userId, script] });
  }
}

/** The scripts of those of the users who have one, in one statement. */
export async function sieveScriptsOf(sql: Pool, userIds: number[]): Promise<Map<number, StoredSieveScript>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await sql.query<{ user_id: number; script: string; updated_at: Date }>({ ...OF_USERS, values: [[...new Set(userIds)]] });
  return new Map(rows.map((row) => [row.user_id, { script: row.script, updatedAt: row.updated_at }]));
}
