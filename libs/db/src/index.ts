export { createDatabase, createSqlPool, type Database, type DatabaseOptions, type SqlPoolOptions } from './database';
export { applyMigrations, type MigrationReport } from './migrations';
export { inTransaction } from './in-transaction';
export { namedStatement, declaredStatements, type NamedStatement } from './named-statements';
export { queryBuilder, type QueryBuilder, type Tables } from './query-builder';
export { readRouting } from './read-routing/read-routing';
export { primaryOnly, type UserReads, type UserWrites } from './read-routing/user-routing';
export { PrismaClient, Prisma } from './generated/prisma/client';
export type { MailboxRole, SendStatus } from './generated/prisma/enums';
