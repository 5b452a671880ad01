import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

const LIST = namedStatement('app-passwords-list', 'SELECT id, name, created_at, last_used_at FROM app_passwords WHERE user_id = $1 ORDER BY created_at, id');
/** Inserted only while the user has fewer than $4: two requests at once cannot both pass the limit (the user's row is locked). */
const ADD = namedStatement(
  'app-passwords-add',
  `WITH owner AS (SELECT id FROM users WHERE id = $1 FOR UPDATE)
   INSERT INTO app_passwords (user_id, name, secret_hash)
   SELECT owner.id, $2, $3 FROM owner WHERE (SELECT count(*) FROM app_passwords WHERE user_id = $1) < $4
   RETURNING id, name, created_at, last_used_at`,
);
const REMOVE = namedStatement('app-passwords-remove', 'DELETE FROM app_passwords WHERE id = $2 AND user_id = $1 RETURNING name');
const FIND = namedStatement('app-passwords-find', 'SELECT id, name FROM app_passwords WHERE user_id = $1 AND secret_hash = $2');
/** At most once a minute: a client that signs in for every message writes no row each time. */
const TOUCH = namedStatement(
  'app-passwords-touch',
  `UPDATE app_passwords SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
);

/** An app password as its owner sees it: never its secret. */
export interface AppPasswordView {
  id: number;
  name: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, to the minute; null until a client signs in with it. */
  lastUsedAt: string | null;
}

interface AppPasswordRow {
  id: number;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const viewOf = (row: AppPasswordRow): AppPasswordView => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

/** The SQL of `app_passwords`: users' app passwords, kept as SHA-256 hashes. */
export class AppPasswordStore {
  constructor(private readonly sql: Pool) {}

  async of(userId: number): Promise<AppPasswordView[]> {
    const { rows } = await this.sql.query<AppPasswordRow>({ ...LIST, values: [userId] });
    return rows.map(viewOf);
  }

  /** The new app password; undefined when the user has `limit` already (or is gone). */
  async add(userId: number, name: string, secretHash: string, limit: number): Promise<AppPasswordView | undefined> {
    const { rows } = await this.sql.query<AppPasswordRow>({ ...ADD, values: [userId, name, secretHash, limit] });
    return rows[0] && viewOf(rows[0]);
  }

  /** The name of the app password removed; undefined when the user has none of that id. */
  async remove(userId: number, id: number): Promise<string | undefined> {
    const { rows } = await this.sql.query<{ name: string }>({ ...REMOVE, values: [userId, id] });
    return rows[0]?.name;
  }

  /** The user's app password of this hash, if they have it. */
  async find(userId: number, secretHash: string): Promise<{ id: number; name: string } | undefined> {
    const { rows } = await this.sql.query<{ id: number; name: string }>({ ...FIND, values: [userId, secretHash] });
    return rows[0];
  }

  /** Records that a client signed in with it. */
  async touch(id: number): Promise<void> {
    await this.sql.query({ ...TOUCH, values: [id] });
  }
}
