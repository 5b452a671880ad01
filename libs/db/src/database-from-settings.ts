import { createDatabase, type Database } from './database';

/** What a process's settings say of its database (databaseConfig, or requestDatabaseConfig for an app that serves requests). */
export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_READ_URL?: string;
  DATABASE_POOL_SIZE: number;
  DATABASE_STATEMENT_TIMEOUT_MS?: number;
  /** Set (heavyReadsDatabaseConfig) in an app that serves heavy reads: they get pools of their own. */
  DATABASE_HEAVY_STATEMENT_TIMEOUT_MS?: number;
  /** Unset: a quarter of DATABASE_POOL_SIZE, at least 2. */
  DATABASE_HEAVY_POOL_SIZE?: number;
}

/**
 * The process's database as its settings describe it: the primary's pool, the replica's when DATABASE_READ_URL
 * names one, and pools for heavy reads on each when DATABASE_HEAVY_STATEMENT_TIMEOUT_MS is set.
 */
export function databaseFromSettings(settings: DatabaseSettings, applicationName: string): Database {
  const heavyTimeout = settings.DATABASE_HEAVY_STATEMENT_TIMEOUT_MS;
  return createDatabase({
    url: settings.DATABASE_URL,
    readUrl: settings.DATABASE_READ_URL,
    poolSize: settings.DATABASE_POOL_SIZE,
    applicationName,
    statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
    ...(heavyTimeout !== undefined && {
      heavyReads: { poolSize: settings.DATABASE_HEAVY_POOL_SIZE ?? Math.max(2, Math.ceil(settings.DATABASE_POOL_SIZE / 4)), statementTimeoutMs: heavyTimeout },
    }),
  });
}
