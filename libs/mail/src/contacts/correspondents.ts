import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

/** A sender as one recipient knows them, or does not. */
export interface SenderOfRecipient {
  userId: number;
  /** The sender's address, any case. */
  address: string;
}

const WRITTEN_TO = namedStatement(
  'contacts-written-to',
  `SELECT c.user_id, c.address
     FROM unnest($1::int[], $2::text[]) AS p(user_id, address)
     JOIN contacts c ON c.user_id = p.user_id AND c.address = lower(p.address)
    WHERE c.sent_count > 0`,
);

/**
 * Which of the pairs are people the user has written to (a contact with mail sent to it), in
 * one statement: mail from them is never put in Spam by its score alone. Heard-from contacts
 * do not count, since any sender becomes one by sending. Keys are `userId address`, lower-case.
 */
export async function writtenToAmong(sql: Pool, pairs: SenderOfRecipient[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const { rows } = await sql.query<{ user_id: number; address: string }>({
    ...WRITTEN_TO,
    values: [pairs.map((pair) => pair.userId), pairs.map((pair) => pair.address)],
  });
  return new Set(rows.map((row) => correspondentKey(row.user_id, row.address)));
}

export function correspondentKey(userId: number, address: string): string {
  return `${userId} ${address.toLowerCase()}`;
}
