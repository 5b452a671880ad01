import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from './generated/prisma/client';

export interface DatabaseOptions {
  url: string;
  poolSize: number;
  /** Shown in pg_stat_activity, so a pool can be traced to its app. */
  applicationName: string;
}

/**
 * One pg pool shared by two clients: `sql` for the hot read paths, where raw pg costs a
 * third of Prisma's CPU per query, and `prisma` for writes and everything else.
 */
export interface Database {
  sql: Pool;
  prisma: PrismaClient;
  close(): Promise<void>;
}

export function createDatabase(options: DatabaseOptions): Database {
  const sql = new Pool({
    connectionString: options.url,
    max: options.poolSize,
    application_name: options.applicationName,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  sql.on('error', (error) => console.error(`[db] idle connection error: ${error.message}`));
  const prisma = new PrismaClient({ adapter: new PrismaPg(sql) });
  return {
    sql,
    prisma,
    async close() {
      await prisma.$disconnect();
      await sql.end();
    },
  };
}
