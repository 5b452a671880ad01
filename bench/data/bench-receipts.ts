import type { Pool } from 'pg';
import type { Database } from '@letterbox/db';
import { newCertKey } from '@letterbox/mail';
import { ALICE_EMAIL } from './bench-accounts';

/** Enough distinct rows that 600 connections rarely update the same receipt at once. */
const BENCH_RECEIPT_COUNT = 1000;
const RECIPIENT_DOMAIN = 'bench.letterbox.test';

export interface BenchReceipt {
  officeNo: number;
  certKey: string;
  email: string;
}

/**
 * Gives one of alice's sent mails BENCH_RECEIPT_COUNT read receipts, one per made-up
 * recipient. Recipients are unique per mail, so a second run inserts nothing.
 */
export async function ensureBenchReceipts(db: Database): Promise<void> {
  const { rows } = await db.sql.query<{ mail_id: string; office_id: number }>(
    `SELECT m.id AS mail_id, u.office_id FROM mails m
       JOIN users u ON u.id = m.user_id
       JOIN mailboxes mb ON mb.id = m.mailbox_id
      WHERE u.email = $1 AND mb.role = 'sent' AND m.deleted_at IS NULL
      ORDER BY m.id LIMIT 1`,
    [ALICE_EMAIL],
  );
  if (!rows[0]) throw new Error(`${ALICE_EMAIL} has no sent mail to attach receipts to; seed the demo office first`);
  const certKeys = Array.from({ length: BENCH_RECEIPT_COUNT }, () => newCertKey());
  const { rowCount } = await db.sql.query(
    `INSERT INTO read_receipts (office_id, mail_id, recipient_email, cert_key)
     SELECT $1, $2, 'reader-' || g || '@${RECIPIENT_DOMAIN}', ($3::text[])[g] FROM generate_series(1, $4::int) AS g
     ON CONFLICT (mail_id, recipient_email) DO NOTHING`,
    [rows[0].office_id, rows[0].mail_id, certKeys, BENCH_RECEIPT_COUNT],
  );
  console.log(`read receipts for the receipt-confirm scenario: ${rowCount} added, ${BENCH_RECEIPT_COUNT - (rowCount ?? 0)} already there`);
}

/** The receipts ensureBenchReceipts made, read back because their keys are random. */
export async function loadBenchReceipts(sql: Pool): Promise<BenchReceipt[]> {
  const { rows } = await sql.query<{ office_id: number; cert_key: string; recipient_email: string }>(
    `SELECT office_id, cert_key, recipient_email FROM read_receipts WHERE recipient_email LIKE $1 ORDER BY id`,
    [`%@${RECIPIENT_DOMAIN}`],
  );
  return rows.map((row) => ({ officeNo: row.office_id, certKey: row.cert_key, email: row.recipient_email }));
}
