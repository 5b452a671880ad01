import type { Pool } from 'pg';

/**
 * What a read costs: `light` reads a few rows by index (lists, a mail, counters, sessions);
 * `heavy` may read many rows for each it answers (full-text search, text filters), and runs
 * on pools of its own (Database.heavyReads).
 */
export type ReadLoad = 'light' | 'heavy';

/** Which pool may serve a user's reads that tolerate a replica's lag. */
export interface UserReads {
  poolFor(userId: number, load?: ReadLoad): Promise<Pool>;
}

/** Told after a user's write has committed, so that the user's next reads see it. */
export interface UserWrites {
  record(userIds: number[]): Promise<void>;
}

/** A server's pools, for each load of read. */
export type ServerPools = Record<ReadLoad, Pool>;

/** Without a replica: every read on the primary (heavy ones on its heavy pool), and nothing to remember of writes. */
export function primaryOnly(primary: Pool, heavy: Pool = primary): UserReads & UserWrites {
  return {
    poolFor: (_userId, load = 'light') => Promise.resolve(load === 'heavy' ? heavy : primary),
    record: () => Promise.resolve(),
  };
}
