import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { BatchCollector } from '@letterbox/queue';

/** A user's storage: bytes of live mail (kept by triggers on mails) and the quota that bounds them. */
export interface MailboxUsage {
  usedBytes: number;
  quotaBytes: number;
}

const USAGE = namedStatement(
  'recipients-usage',
  'SELECT id, used_bytes, coalesce(quota_bytes, $2::bigint) AS quota_bytes FROM users WHERE id = ANY($1::int[])',
);

/**
 * The recipients' usage and quotas, read afresh for every message: a counter that moves with
 * each stored mail cannot be cached. The messages that arrive together are answered by one
 * statement (the lookups gather while one runs, as acceptances do), so a burst costs a few
 * point queries by primary key, not one per message.
 */
export class RecipientQuotas {
  private readonly lookups: BatchCollector<number[], Map<number, MailboxUsage>>;

  constructor(
    private readonly sql: Pool,
    /** USER_QUOTA_BYTES: the quota of a user without one of their own. */
    private readonly defaultQuotaBytes: number,
  ) {
    this.lookups = new BatchCollector((batch) => this.lookUp(batch), { maxSize: 500, maxWaitMs: 0, maxInFlight: 2 });
  }

  /** Each of these users' usage; a user deleted meanwhile is left out. */
  usageOf(userIds: number[]): Promise<Map<number, MailboxUsage>> {
    return this.lookups.add(userIds);
  }

  private async lookUp(batch: number[][]): Promise<Array<Map<number, MailboxUsage>>> {
    const ids = [...new Set(batch.flat())];
    const { rows } = await this.sql.query<{ id: number; used_bytes: string; quota_bytes: string }>({ ...USAGE, values: [ids, this.defaultQuotaBytes] });
    const usage = new Map(rows.map((row) => [row.id, { usedBytes: Number(row.used_bytes), quotaBytes: Number(row.quota_bytes) }]));
    return batch.map((userIds) => new Map(userIds.flatMap((id) => (usage.has(id) ? [[id, usage.get(id) as MailboxUsage] as const] : []))));
  }
}
