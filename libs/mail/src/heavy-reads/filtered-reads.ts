import type { Pool } from 'pg';
import type { UserReads } from '@letterbox/db';
import type { MailListFilter } from '../list/mail-filter-sql';
import { isHeavyFilter } from './heavy-filter';
import type { PerUserLimit } from './per-user-limit';

/**
 * Runs a read of a filter where its cost says: a light one on the pool the routing gives;
 * a heavy one within the user's limit of heavy reads, on the heavy pool of that server.
 */
export class FilteredReads {
  constructor(
    private readonly reads: UserReads,
    private readonly heavyReads: PerUserLimit,
  ) {}

  async run<T>(userId: number, filter: MailListFilter, read: (pool: Pool) => Promise<T>): Promise<T> {
    if (!isHeavyFilter(filter)) return read(await this.reads.poolFor(userId));
    return this.heavyReads.run(userId, async () => read(await this.reads.poolFor(userId, 'heavy')));
  }
}
