import type { Pool, PoolClient } from 'pg';
import { namedStatement } from '@letterbox/db';

const USAGE = namedStatement('imap-usage', 'SELECT used_bytes, coalesce(quota_bytes, $2) AS quota_bytes FROM users WHERE id = $1');

/** What the user's mail takes and may take; `defaultQuotaBytes` (USER_QUOTA_BYTES) for a user without a quota of their own. */
export async function imapUsage(sql: Pool | PoolClient, userId: number, defaultQuotaBytes: number): Promise<{ usedBytes: number; quotaBytes: number }> {
  const { rows } = await sql.query<{ used_bytes: string; quota_bytes: string }>({ ...USAGE, values: [userId, defaultQuotaBytes] });
  return { usedBytes: Number(rows[0]?.used_bytes ?? 0), quotaBytes: Number(rows[0]?.quota_bytes ?? defaultQuotaBytes) };
}
