import { Kysely, PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
import type { DB } from './generated/kysely/database';

/**
 * The tables as prisma-kysely generates them from prisma/schema.prisma (setup's `prisma
 * generate`): column names as in SQL, int8 columns as strings, as pg returns them.
 */
export type Tables = DB;

export type QueryBuilder = Kysely<Tables>;

const builders = new WeakMap<Pool, QueryBuilder>();

/**
 * Typed SQL for statements whose shape varies (filters, optional clauses), over one of
 * libs/db's pools, never a pool of its own: what it runs borrows the same connections as
 * raw pg and Prisma. One per pool. A builder's `compile()` gives text and values that the
 * pool can also run as a named (prepared) statement, which Kysely's own execution cannot.
 */
export function queryBuilder(pool: Pool): QueryBuilder {
  let builder = builders.get(pool);
  if (!builder) {
    builder = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    builders.set(pool, builder);
  }
  return builder;
}
