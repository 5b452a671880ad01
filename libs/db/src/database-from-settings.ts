import { createDatabase, type Database } from './database';

/** What a process's settings say of its database (databaseConfig, or requestDatabaseConfig for an app that serves requests). */
export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_READ_URL?: string;
  DATABASE_POOL_SIZE: number;
  DATABASE_STATEMENT_TIMEOUT_MS?: number;
}

/** The process's database as its settings describe it: the primary's pool, and the replica's when DATABASE_READ_URL names one. */
export function databaseFromSettings(settings: DatabaseSettings, applicationName: string): Database {
  return createDatabase({
    url: settings.DATABASE_URL,
    readUrl: settings.DATABASE_READ_URL,
    poolSize: settings.DATABASE_POOL_SIZE,
    applicationName,
    statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
  });
}
