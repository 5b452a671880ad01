import { namedStatement, type Database } from '@letterbox/db';

/** How a user signs their mail, and the addresses they may send from. */
export interface UserIdentity {
  email: string;
  displayName: string;
  /** Their own addresses, lower-case: the primary first, then their aliases. */
  addresses: string[];
  /** The name mail from an address shows, for those of their addresses that have their own (identities). */
  addressNames: Record<string, string>;
}

const IDENTITIES = namedStatement(
  'senders-of',
  `SELECT u.id, u.email, u.display_name,
          ARRAY(SELECT a.address FROM addresses a WHERE a.user_id = u.id AND a.kind IN ('primary', 'alias') ORDER BY a.kind, a.address) AS addresses,
          (SELECT COALESCE(jsonb_object_agg(a.address, a.display_name), '{}') FROM addresses a
            WHERE a.user_id = u.id AND a.kind IN ('primary', 'alias') AND a.display_name IS NOT NULL) AS address_names
     FROM users u WHERE u.id = ANY($1::int[])`,
);

/** The identities of these users in one query, in the order given; undefined for a user who does not exist. */
export async function identitiesOf(db: Database, userIds: number[]): Promise<Array<UserIdentity | undefined>> {
  const { rows } = await db.sql.query<{ id: number; email: string; display_name: string; addresses: string[]; address_names: Record<string, string> }>({
    ...IDENTITIES,
    values: [userIds],
  });
  const byId = new Map(
    rows.map((row) => [
      row.id,
      {
        email: row.email,
        displayName: row.display_name,
        addresses: [...new Set([row.email.toLowerCase(), ...row.addresses])],
        addressNames: row.address_names,
      },
    ]),
  );
  return userIds.map((userId) => byId.get(userId));
}

/** A user's own addresses, lower-case (their primary first): none for a user who does not exist. */
export async function ownAddressesOf(db: Database, userId: number): Promise<string[]> {
  const [identity] = await identitiesOf(db, [userId]);
  return identity?.addresses ?? [];
}
