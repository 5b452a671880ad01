import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

/** 128 random bits: a key cannot be guessed, so confirming needs no sign-in. */
export function newCertKey(): string {
  return randomBytes(16).toString('base64url');
}

const CONFIRM = namedStatement(
  'receipt-confirm',
  `UPDATE read_receipts
      SET first_read_at = COALESCE(first_read_at, now()), read_count = read_count + 1
    WHERE cert_key = $1 AND office_id = $2 AND recipient_email = $3`,
);

const KEYS_OF = namedStatement('receipt-keys-of', 'SELECT recipient_email, cert_key FROM read_receipts WHERE mail_id = $1');

/** The keys of a sent mail's read receipts, by recipient: what the images its messages carry name. */
export async function readReceiptKeys(sql: Pool, mailId: number): Promise<Map<string, string>> {
  const { rows } = await sql.query<{ recipient_email: string; cert_key: string }>({ ...KEYS_OF, values: [mailId] });
  return new Map(rows.map((row) => [row.recipient_email, row.cert_key]));
}

/** Owns its pool, which is meant for receipt events alone (see SqlPoolOptions.synchronousCommit). */
export class ReadReceipts {
  constructor(private readonly sql: Pool) {}

  /**
   * Records one open of a sent mail by a recipient. A single UPDATE keeps the first read
   * time and counts every open, so concurrent opens neither race nor double-count. An
   * unknown key changes nothing, and the caller answers the same either way.
   */
  async confirm(officeId: number, certKey: string, email: string): Promise<boolean> {
    const { rowCount } = await this.sql.query({ ...CONFIRM, values: [certKey, officeId, email.toLowerCase()] });
    return rowCount === 1;
  }

  close(): Promise<void> {
    return this.sql.end();
  }
}
