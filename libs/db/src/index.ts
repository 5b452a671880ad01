export { createDatabase, type Database, type DatabaseOptions } from './database';
export { applyMigrations, type MigrationReport } from './migrations';
export { PrismaClient, Prisma } from './generated/prisma/client';
export type { MailboxRole, SendStatus } from './generated/prisma/enums';
