import type { Pool } from 'pg';
import { z } from 'zod';
import { namedStatement } from '@letterbox/db';
import { correspondentKey, type SenderOfRecipient } from './correspondents';

/** "Block sender": their mail goes to Spam whatever its score. "Never spam": never put in Spam by its score. */
export type SenderRule = 'block' | 'allow';

export const senderAddressSchema = z.object({ address: z.email('must be an email address').max(320, 'must be at most 320 characters') }).strict();

export const senderRuleListSchema = z.object({ items: z.array(z.object({ address: z.string(), createdAt: z.iso.datetime() })) }).meta({ id: 'SenderRuleList' });
export type SenderRuleList = z.infer<typeof senderRuleListSchema>;

const LIST = namedStatement('sender-rules-list', 'SELECT address, created_at FROM sender_rules WHERE user_id = $1 AND rule = $2 ORDER BY address LIMIT 10000');
// One rule an address: blocking an allowed sender takes them off the allowed list, and back.
const PUT = namedStatement(
  'sender-rules-put',
  `INSERT INTO sender_rules (user_id, address, rule) VALUES ($1, lower($2), $3)
   ON CONFLICT (user_id, address) DO UPDATE SET rule = EXCLUDED.rule, created_at = now()
   WHERE sender_rules.rule <> EXCLUDED.rule`,
);
const REMOVE = namedStatement('sender-rules-remove', 'DELETE FROM sender_rules WHERE user_id = $1 AND address = lower($2) AND rule = $3');
const AMONG = namedStatement(
  'sender-rules-among',
  `SELECT r.user_id, r.address, r.rule
     FROM unnest($1::int[], $2::text[]) AS p(user_id, address)
     JOIN sender_rules r ON r.user_id = p.user_id AND r.address = lower(p.address)`,
);

/** The senders a user has blocked ("Block sender") or allowed ("Never spam"), which the ingest's spam stage obeys. */
export class SenderRules {
  constructor(private readonly sql: Pool) {}

  async list(userId: number, rule: SenderRule): Promise<SenderRuleList> {
    const { rows } = await this.sql.query<{ address: string; created_at: Date }>({ ...LIST, values: [userId, rule] });
    return { items: rows.map((row) => ({ address: row.address, createdAt: row.created_at.toISOString() })) };
  }

  async put(userId: number, address: string, rule: SenderRule): Promise<void> {
    await this.sql.query({ ...PUT, values: [userId, address, rule] });
  }

  /** False when the address was not on that list. */
  async remove(userId: number, address: string, rule: SenderRule): Promise<boolean> {
    const { rowCount } = await this.sql.query({ ...REMOVE, values: [userId, address, rule] });
    return (rowCount ?? 0) > 0;
  }
}

/** The rules the recipients have for the senders, in one statement; keys as correspondentKey makes them. */
export async function senderRulesAmong(sql: Pool, pairs: SenderOfRecipient[]): Promise<Map<string, SenderRule>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await sql.query<{ user_id: number; address: string; rule: SenderRule }>({
    ...AMONG,
    values: [pairs.map((pair) => pair.userId), pairs.map((pair) => pair.address)],
  });
  return new Map(rows.map((row) => [correspondentKey(row.user_id, row.address), row.rule]));
}
