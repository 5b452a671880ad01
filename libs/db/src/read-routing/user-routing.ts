import type { Pool } from 'pg';

/** Which pool may serve a user's reads that tolerate a replica's lag. */
export interface UserReads {
  poolFor(userId: number): Promise<Pool>;
}

/** Told after a user's write has committed, so that the user's next reads see it. */
export interface UserWrites {
  record(userIds: number[]): Promise<void>;
}

/** Without a replica: every read on the primary, and nothing to remember of writes. */
export function primaryOnly(primary: Pool): UserReads & UserWrites {
  return {
    poolFor: () => Promise.resolve(primary),
    record: () => Promise.resolve(),
  };
}
