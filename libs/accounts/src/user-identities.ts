import { namedStatement, type Database } from '@letterbox/db';

/** How a user signs their mail. */
export interface UserIdentity {
  email: string;
  displayName: string;
}

const IDENTITIES = namedStatement('senders-of', 'SELECT id, email, display_name FROM users WHERE id = ANY($1::int[])');

/** The identities of these users in one query, in the order given; undefined for a user who does not exist. */
export async function identitiesOf(db: Database, userIds: number[]): Promise<Array<UserIdentity | undefined>> {
  const { rows } = await db.sql.query<{ id: number; email: string; display_name: string }>({ ...IDENTITIES, values: [userIds] });
  const byId = new Map(rows.map((row) => [row.id, { email: row.email, displayName: row.display_name }]));
  return userIds.map((userId) => byId.get(userId));
}
