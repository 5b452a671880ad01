import type { RedisConnection } from '@letterbox/redis';
import type { Pool } from 'pg';
import { loggerFor, oncePerInterval, within } from '@letterbox/observability';
import { namedStatement } from '../named-statements';
import { ReplayedPosition } from './replayed-position';
import type { ReadLoad, ServerPools, UserReads, UserWrites } from './user-routing';
import { sortableWalPosition } from './wal-position';

/**
 * How long a user's reads wait for the replica after their last write. A replica further
 * behind than this is broken, and its readers see old mail whatever we do.
 */
const REMEMBERED_MS = 60_000;
const REDIS_WITHIN_MS = 250;
const logger = loggerFor('db');
const INSERT_POSITION = namedStatement('primary-insert-position', 'SELECT pg_current_wal_insert_lsn()::text AS lsn');

/**
 * Keeps the later of the stored and the given position: two processes recording a user's
 * writes at once may finish in either order. One key, so it runs on Redis Cluster too.
 * KEYS[1]: the user's key. ARGV: position (sortableWalPosition), expiry in ms.
 */
const RECORD_LATER = `
local stored = redis.call('GET', KEYS[1])
if not stored or stored < ARGV[1] then stored = ARGV[1] end
redis.call('SET', KEYS[1], stored, 'PX', ARGV[2])
`;

/**
 * Read-your-writes with a replica, for many API processes behind a load balancer. After a
 * user's write commits, the primary's WAL position is stored in Redis under the user, for a
 * minute; a read of that user goes to the replica only once it has replayed that far. A
 * user with no recent write reads from the replica whatever its lag: that is what reads
 * that tolerate lag means. Stored in Redis rather than a process's memory because the next
 * request, or the refetch a live event prompts, may reach any process. When Redis or the
 * replica does not answer, nothing is known, and the read goes to the primary.
 */
export class ReplicaRouting implements UserReads, UserWrites {
  private readonly replayed: ReplayedPosition;
  private readonly mayReport = oncePerInterval(30_000);

  constructor(
    private readonly primary: ServerPools,
    private readonly replica: ServerPools,
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {
    this.replayed = new ReplayedPosition(replica.light);
  }

  async poolFor(userId: number, load: ReadLoad = 'light'): Promise<Pool> {
    const [written, replayed] = await Promise.all([this.lastWrite(userId), this.replayed.current()]);
    const onReplica = written !== undefined && replayed !== undefined && (written === null || replayed >= written);
    return (onReplica ? this.replica : this.primary)[load];
  }

  /**
   * The insert position, read after the commit: it is at or past the end of the commit's
   * record whether or not the commit waited for its WAL flush (synchronous_commit=off).
   */
  async record(userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    try {
      const { rows } = await this.primary.light.query<{ lsn: string }>(INSERT_POSITION);
      const position = sortableWalPosition(rows[0].lsn);
      await Promise.all(userIds.map((userId) => within(this.redis.eval(RECORD_LATER, 1, this.key(userId), position, REMEMBERED_MS), REDIS_WITHIN_MS)));
    } catch (error) {
      if (this.mayReport())
        logger.warn({ err: error }, 'a write was not recorded for read-your-writes: its user may read from the replica before it has the write');
    }
  }

  /** The position of the user's last write; null: none lately; undefined: Redis does not answer. */
  private async lastWrite(userId: number): Promise<string | null | undefined> {
    try {
      return await within(this.redis.get(this.key(userId)), REDIS_WITHIN_MS);
    } catch (error) {
      if (this.mayReport()) logger.warn({ err: error }, 'Redis does not answer: reads go to the primary (repeats are not logged for 30 s)');
      return undefined;
    }
  }

  /** The user id in a hash tag: the key's slot is the user's on Redis Cluster. */
  private key(userId: number): string {
    return `${this.prefix}:read-after-write:{u:${userId}}`;
  }
}
