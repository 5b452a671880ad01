import { createHash } from 'node:crypto';
import type { RedisConnection } from '@letterbox/redis';

export interface RecipientMessage {
  userId: number;
  /** dedupKeyOf the message. */
  dedupKey: string;
}

/** Long enough to cover the redeliveries a sending server makes; PostgreSQL stays the truth after that. */
const REMEMBER_SECONDS = 7 * 24 * 3600;

/**
 * The ingest worker's fast path for duplicates: which (recipient, message) pairs were
 * stored already, and by which acceptance. A whole batch is asked at once, so a redelivered
 * burst is skipped without reading its messages or touching PostgreSQL, whose unique key
 * still decides when Redis has forgotten. One command per key, sent together (about one
 * round trip): a batch's keys lie in many slots, over which a Redis Cluster refuses an MGET,
 * and on several nodes, over which ioredis refuses a pipeline.
 */
export class IngestedMessages {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {}

  /** For each pair, the inbound id that stored it, if remembered. */
  async storedBy(pairs: RecipientMessage[]): Promise<Array<string | null>> {
    if (pairs.length === 0) return [];
    return Promise.all(pairs.map((pair) => this.redis.get(this.keyOf(pair))));
  }

  async remember(entries: Array<RecipientMessage & { inboundId: string }>): Promise<void> {
    if (entries.length === 0) return;
    await Promise.all(entries.map((entry) => this.redis.set(this.keyOf(entry), entry.inboundId, 'EX', REMEMBER_SECONDS)));
  }

  private keyOf({ userId, dedupKey }: RecipientMessage): string {
    // Hashed again: jobs queued before dedup keys existed carry a raw Message-ID as theirs.
    return `${this.prefix}:ingested:${userId}:${createHash('sha256').update(dedupKey).digest('base64url')}`;
  }
}
