import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, type PoolClient } from 'pg';
import { dbPoolAcquire, loggerFor, watchPool, type PoolRole } from '@letterbox/observability';
import { PrismaClient } from './generated/prisma/client';

export interface DatabaseOptions {
  url: string;
  /** A streaming replica for reads that tolerate its lag (DATABASE_READ_URL); its pool has the same size and limits. */
  readUrl?: string;
  poolSize: number;
  /** Shown in pg_stat_activity, so a pool can be traced to its app. */
  applicationName: string;
  /**
   * Cancels any statement running longer (PostgreSQL's statement_timeout), so one slow query
   * cannot hold a pooled connection of a request-serving app for ever. Unset: no limit.
   */
  statementTimeoutMs?: number;
  /** Pools of their own for heavy reads (HeavyReadOptions); without, heavy reads share the pools above. */
  heavyReads?: HeavyReadOptions;
}

/**
 * Searches and text filters may each hold a connection for seconds: on pools of their own,
 * sized apart and cut short sooner, they cannot take the connections every list, read and
 * sign-in needs.
 */
export interface HeavyReadOptions {
  poolSize: number;
  statementTimeoutMs: number;
}

export interface SqlPoolOptions extends DatabaseOptions {
  /**
   * false: commits return before their WAL reaches disk, so a PostgreSQL crash may lose
   * the last fraction of a second of them (never consistency). Only for records that
   * may be lost that way, such as tracking events.
   */
  synchronousCommit?: boolean;
}

/**
 * One pg pool of the primary shared by two clients: `sql` for the hot read paths, where raw
 * pg costs a third of Prisma's CPU per query, and `prisma` for writes and everything else.
 * With a read replica, `replica` is a pool of its own, for reads only: which of a user's
 * reads may go there is UserReads' call. `heavyReads` are the pools of each server for
 * heavy reads (DatabaseOptions.heavyReads), or the same pools when they have none of their own.
 */
export interface Database {
  sql: Pool;
  prisma: PrismaClient;
  replica?: Pool;
  heavyReads: { primary: Pool; replica?: Pool };
  close(): Promise<void>;
}

export function createDatabase(options: DatabaseOptions): Database {
  const sql = createSqlPool(options);
  const replica = options.readUrl ? createSqlPool({ ...options, url: options.readUrl }, 'replica') : undefined;
  const heavyReads = options.heavyReads ? heavyReadPools({ ...options, ...options.heavyReads }) : { primary: sql, replica };
  const prisma = new PrismaClient({ adapter: new PrismaPg(sql) });
  const pools = new Set([sql, replica, heavyReads.primary, heavyReads.replica]);
  return {
    sql,
    prisma,
    ...(replica ? { replica } : {}),
    heavyReads,
    async close() {
      await prisma.$disconnect();
      await Promise.all([...pools].map((pool) => pool?.end()));
    },
  };
}

function heavyReadPools(options: DatabaseOptions): Database['heavyReads'] {
  const heavy = { ...options, applicationName: `${options.applicationName}-heavy` };
  return {
    primary: createSqlPool(heavy),
    ...(options.readUrl ? { replica: createSqlPool({ ...heavy, url: options.readUrl }, 'replica') } : {}),
  };
}

export function createSqlPool(options: SqlPoolOptions, role: PoolRole = 'primary'): Pool {
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolSize,
    application_name: options.applicationName,
    connectionTimeoutMillis: 10_000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    // No JIT: it compiles a statement whose estimated cost passes jit_above_cost at every run, and a search
    // that walks its way through a bounded list of mails is estimated costly, ran in 1 ms and compiled for 70.
    options: options.synchronousCommit === false ? '-c jit=off -c synchronous_commit=off' : '-c jit=off',
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', (error) => logger.warn({ err: error }, 'an idle database connection failed; the pool replaces it'));
  timeAcquisitions(pool);
  watchPool(pool, role);
  return pool;
}

const logger = loggerFor('db');

type ConnectCallback = (error: Error | undefined, client: PoolClient | undefined, release: (release?: unknown) => void) => void;

/** How long each query waited for a connection: pg's pool.query borrows through connect(callback). */
function timeAcquisitions(pool: Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<PoolClient> | undefined;
  const timed = (callback?: ConnectCallback) => {
    const stop = dbPoolAcquire.startTimer();
    if (!callback) return (connect() as Promise<PoolClient>).finally(() => stop());
    return connect((error, client, release) => {
      stop();
      callback(error, client, release);
    });
  };
  pool.connect = timed as Pool['connect'];
}
