import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The repository, found from this file whether it runs from source or from dist/. */
function findRepoRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
  }
  return process.cwd();
}

const repoRoot = findRepoRoot(__dirname);

export const portFrom = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

const postgresUrl = z
  .string()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgresql:// URL');

export const databaseConfig = {
  DATABASE_URL: postgresUrl.default('postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
};

/** The database of an app that serves requests: no statement may hold a pooled connection for long. */
export const requestDatabaseConfig = {
  ...databaseConfig,
  /** PostgreSQL cancels a statement of the pool running longer than this; the request answers 503. 0: no limit. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
};

export const storageConfig = {
  STORAGE_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'var/storage'))
    .transform((dir) => path.resolve(repoRoot, dir)),
  STORAGE_COMPRESS: z.enum(['none', 'gzip']).default('none'),
};

export const authConfig = {
  AUTH_TOKEN_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .default('letterbox-demo-secret-change-me-in-production'),
  AUTH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(12 * 60 * 60),
};

export const redisConfig = {
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\//.test(value), 'must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
  /** Namespace of the queues' keys in Redis. */
  QUEUE_PREFIX: z.string().regex(/^[a-z0-9_-]{1,40}$/i, 'must be 1 to 40 letters, digits, - or _').default('bull'),
};
