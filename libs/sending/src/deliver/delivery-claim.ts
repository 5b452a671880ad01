import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

const CLAIM = namedStatement(
  'claim-delivery',
  `UPDATE outbound_sends SET
  status = 'sending',
  attempts = attempts + CASE WHEN $3 THEN 1 ELSE 0 END,
  started_at = coalesce(started_at, now()),
  attempted_to = CASE WHEN $2::text IS NULL OR $2::text = ANY(attempted_to) THEN attempted_to ELSE array_append(attempted_to, $2::text) END
WHERE id = $1 AND status IN ('queued', 'sending')`,
);

/**
 * Moves a send to `sending` and records that the message under `attemptKey` is about to be
 * handed to the provider, in one statement: it runs between a message's rate-limit slot and
 * its departure, so its round trips are the delay that pacing must absorb. `firstInRun`
 * counts the run as an attempt and stamps started_at once. False if the send is no longer
 * queued or sending (it was cancelled).
 */
export async function claimDelivery(sql: Pool, sendId: number, attemptKey: string | null, firstInRun: boolean): Promise<boolean> {
  const { rowCount } = await sql.query({ ...CLAIM, values: [sendId, attemptKey, firstInRun] });
  return rowCount === 1;
}
