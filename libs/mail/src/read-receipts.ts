import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/** 128 random bits: a key cannot be guessed, so confirming needs no sign-in. */
export function newCertKey(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The statement that inserts the read receipts of `source`, a relation (a CTE's name) of
 * sent mails with `office_id`, `mail_id` and `receipts`, a jsonb array of `{ email, cert_key }`.
 */
export function readReceiptsInsertSql(source: string): string {
  return `INSERT INTO read_receipts (office_id, mail_id, recipient_email, cert_key)
  SELECT c.office_id, c.mail_id, r.email, r.cert_key
    FROM ${source} c, jsonb_to_recordset(c.receipts) AS r(email text, cert_key text)`;
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
    const { rowCount } = await this.sql.query({
      name: 'receipt-confirm',
      text: `UPDATE read_receipts
                SET first_read_at = COALESCE(first_read_at, now()), read_count = read_count + 1
              WHERE cert_key = $1 AND office_id = $2 AND recipient_email = $3`,
      values: [certKey, officeId, email.toLowerCase()],
    });
    return rowCount === 1;
  }

  close(): Promise<void> {
    return this.sql.end();
  }
}
