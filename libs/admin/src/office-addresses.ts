import type { PoolClient } from 'pg';
import { AddressTakenError, DomainNotOwnedError } from './admin-errors';

/** Addresses are kept lower-case, as mail is received for them. */
export const normalizedAddress = (address: string) => address.trim().toLowerCase();

/** Refuses an address outside the office's domains (422 in the API). */
export async function requireOwnedDomain(client: PoolClient, officeId: number, address: string): Promise<void> {
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const { rowCount } = await client.query({ text: 'SELECT 1 FROM domains WHERE office_id = $1 AND name = $2', values: [officeId, domain] });
  if (rowCount === 0) throw new DomainNotOwnedError(address);
}

/** The unique violation of `addresses` (any owner's) or `users.email` as the address it is about. */
export function addressTaken(address: string) {
  return (error: { code?: string }): never => {
    if (error.code === '23505') throw new AddressTakenError(address);
    throw error;
  };
}
