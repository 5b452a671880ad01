import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface RecipientMessage {
  userId: number;
  /** dedupKeyOf the message. */
  dedupKey: string;
}

/** Long enough to cover the redeliveries a sending server makes; PostgreSQL stays the truth after that. */
const REMEMBER_SECONDS = 7 * 24 * 3600;

/**
 * The ingest worker's fast path for duplicates: which (recipient, message) pairs were
 * stored already, and by which acceptance. One MGET answers a whole batch, so a redelivered
 * burst is skipped without reading its messages or touching PostgreSQL, whose unique key
 * still decides when Redis has forgotten.
 */
export class IngestedMessages {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** For each pair, the inbound id that stored it, if remembered. */
  async storedBy(pairs: RecipientMessage[]): Promise<Array<string | null>> {
    if (pairs.length === 0) return [];
    return this.redis.mget(pairs.map((pair) => this.keyOf(pair)));
  }

  async remember(entries: Array<RecipientMessage & { inboundId: string }>): Promise<void> {
    if (entries.length === 0) return;
    const batch = this.redis.pipeline();
    for (const entry of entries) batch.set(this.keyOf(entry), entry.inboundId, 'EX', REMEMBER_SECONDS);
    const results = await batch.exec();
    const failure = results?.find(([error]) => error);
    if (failure) throw failure[0];
  }

  private keyOf({ userId, dedupKey }: RecipientMessage): string {
    // Hashed again: jobs queued before dedup keys existed carry a raw Message-ID as theirs.
    return `${this.prefix}:ingested:${userId}:${createHash('sha256').update(dedupKey).digest('base64url')}`;
  }
}
