import { defineConfig } from 'prisma/config';

// The runtime connects through libs/db's pg driver adapter; this file serves the Prisma CLI.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox' },
});
