import path from 'node:path';
import { z } from 'zod';
import { demoSecret } from './demo-secrets';
import { repoRoot } from './repo-root';

export const portFrom = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

const postgresUrl = z.string().refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgresql:// URL');

export const databaseConfig = {
  DATABASE_URL: postgresUrl.default('postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox'),
  /**
   * A streaming replica of DATABASE_URL (one server, not a pool of them: its replay position
   * decides which reads it may serve). Reads that tolerate its lag go to it; an app that
   * writes needs it too, to record its users' writes. Unset or empty: the primary only.
   */
  DATABASE_READ_URL: z.preprocess((value) => (value === '' ? undefined : value), postgresUrl.optional()),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
};

/** The database of an app that serves requests: no statement may hold a pooled connection for long. */
/** What the blob collector spares, and what a backup must finish within (libs/backup says why). */
export const blobGraceConfig = {
  /**
   * Blobs that nothing refers to are removed once older than this. Writers refer to
   * what they put within it (an upload, a request), so it is an hour at the least.
   */
  BLOB_GRACE_MS: z.coerce
    .number()
    .int()
    .min(3_600_000)
    .max(30 * 24 * 3_600_000)
    .default(24 * 3_600_000),
};

export const requestDatabaseConfig = {
  ...databaseConfig,
  /** PostgreSQL cancels a statement of the pool running longer than this; the request answers 503. 0: no limit. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
};

/**
 * Pools of their own for the heavy reads (searches, text filters) of an app that serves them, beside
 * DATABASE_POOL_SIZE's, so that those cannot take the connections of everyone's lists, reads and sign-ins.
 */
export const heavyReadsDatabaseConfig = {
  /** Unset: a quarter of DATABASE_POOL_SIZE, at least 2. */
  DATABASE_HEAVY_POOL_SIZE: z.coerce.number().int().min(1).max(200).optional(),
  /** Shorter than DATABASE_STATEMENT_TIMEOUT_MS: a search cut short answers 503, and the user may narrow it. */
  DATABASE_HEAVY_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
};

export const storageConfig = {
  STORAGE_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'var/storage'))
    .transform((dir) => path.resolve(repoRoot, dir)),
  STORAGE_COMPRESS: z.enum(['none', 'gzip']).default('none'),
  /** Where mail bodies and attachments go: the local disk (STORAGE_DIR) or an S3-compatible bucket (S3_*). */
  STORAGE_BACKEND: z.enum(['disk', 's3']).default('disk'),
  /** The S3 API's address; not set for AWS itself. */
  S3_ENDPOINT: z.string().url('must be a URL such as http://127.0.0.1:9000').optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots or hyphens')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Address buckets as a path, not a host name: what MinIO, Ceph RGW and most S3-compatible stores want. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
};

/** Settings needed only when another has a given value; loadConfig names each one missing. */
export const conditionalSettings: ConditionalSettings[] = [
  { when: 'STORAGE_BACKEND', is: 's3', requires: ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] },
];

export interface ConditionalSettings {
  when: string;
  is: string;
  requires: string[];
}

/** Wrong passwords per account, and per client address, within the window: the API's sign-in and mail clients' count together. */
export const signInLimitsConfig = {
  /** Past them the API answers 429 with Retry-After, a mail server a temporary failure. */
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  SIGN_IN_MAX_FAILURES_PER_CLIENT: z.coerce.number().int().min(1).default(100),
  SIGN_IN_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(15 * 60),
};

export const authConfig = {
  AUTH_TOKEN_SECRET: demoSecret(z.string().min(32, 'must be at least 32 characters'), 'letterbox-demo-secret-change-me-in-production'),
  AUTH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(12 * 60 * 60),
  /** How long a process trusts its memory of a user's token version; revocations announced over Redis end it at once. */
  AUTH_SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  ...signInLimitsConfig,
};

/** Each user's storage quota unless an administrator sets their own: incoming mail, sends and drafts past it are refused. */
export const quotaConfig = {
  USER_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 ** 3),
};

const CLUSTER_NODE = /^[a-z0-9.-]+:(\d{1,5})$/i;

const isClusterNode = (node: string) => {
  const port = Number(CLUSTER_NODE.exec(node)?.[1]);
  return port >= 1 && port <= 65535;
};

function clusterNode(node: string): { host: string; port: number } {
  const colon = node.lastIndexOf(':');
  return { host: node.slice(0, colon), port: Number(node.slice(colon + 1)) };
}

export const redisConfig = {
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\//.test(value), 'must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
  /**
   * A Redis Cluster to use instead of the one Redis at REDIS_URL: some of its nodes, `host:port` comma-separated
   * (the others are discovered). REDIS_URL's user, password and TLS (rediss://) still apply to every node.
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .refine((value) => value === undefined || value.split(',').every((node) => isClusterNode(node.trim())), 'must be host:port pairs, comma-separated')
    .transform((value) => value?.split(',').map((node) => clusterNode(node.trim()))),
  /** Namespace of the queues' keys in Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/i, 'must be 1 to 40 letters, digits, - or _')
    .default('bull'),
};

/** The queue dashboard's HTTP Basic sign-in. */
export const adminConfig = {
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: demoSecret(z.string().min(8, 'must be at least 8 characters'), 'letterbox-admin'),
};

/** The shared secret of the trusted mail gateways that post to the ingest API. */
export const ingestTokenConfig = {
  INGEST_TOKEN: demoSecret(z.string().min(16, 'must be at least 16 characters'), 'letterbox-ingest-demo'),
};

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i;

/** What an HTTP API trusts of its clients and their browsers. */
export const httpConfig = {
  /**
   * Proxies whose X-Forwarded-For is believed (addresses, CIDRs, or loopback / linklocal / uniquelocal), comma-
   * separated: the client address that sign-in limits count is the nearest one not among them. Trusting every
   * hop would let a client name any address it likes.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('loopback')
    .refine(
      (value) => value.split(',').every((entry) => /^(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?)$/i.test(entry.trim())),
      'must be addresses, CIDRs or loopback / linklocal / uniquelocal, comma-separated',
    )
    .transform((value) => value.split(',').map((entry) => entry.trim())),
  /** Browser pages allowed to call an API (CORS), comma-separated origins; by default the webmail's own. */
  CORS_ORIGINS: z
    .string()
    .default('http://127.0.0.1:8080,http://localhost:8080')
    .refine((value) => value.split(',').every((origin) => ORIGIN.test(origin.trim())), 'must be origins such as https://mail.example.com, comma-separated')
    .transform((value) => value.split(',').map((origin) => origin.trim())),
};

/**
 * Every app's listener for operators: /health/live, /health/ready and /metrics, never on a public port; port 0:
 * any free one (tests, several processes). On loopback unless told: metrics say what routes are busy.
 */
export const opsConfig = (port: number) => ({
  OPS_PORT: z.coerce.number().int().min(0).max(65535).default(port),
  OPS_HOST: z.string().min(1).default('127.0.0.1'),
});

/** 32 bytes given as 64 hex digits or as base64: an AES-256 key; undefined when the value is neither. */
export function aes256KeyBytes(value: string): Buffer | undefined {
  const bytes = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

/** The key the DKIM private keys are stored under: a copy of the database alone signs no mail. */
export const dkimKeyConfig = {
  DKIM_KEY_ENCRYPTION_KEY: demoSecret(
    z.string().refine((value) => aes256KeyBytes(value) !== undefined, 'must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)'),
    'nNOqCGRWg0Kc2x+kc3ZNDgAbK5qbjax2+DYa5S6N+HQ=',
  ),
};

/** What the published SPF and DMARC records of the offices' domains say. */
export const mailPolicyConfig = {
  /**
   * The SPF mechanisms naming the hosts that send the offices' mail (the SMTP provider's), as each
   * domain's SPF record to publish shows them: `v=spf1 <these> ~all`.
   */
  SPF_SENDERS: z
    .string()
    .regex(/^[a-z0-9:./_=+-]+( [a-z0-9:./_=+-]+)*$/i, 'must be SPF mechanisms separated by spaces, such as "ip4:192.0.2.1 include:_spf.example.net"')
    .default('a mx'),
};

/** The key that makes each send's bounce address (VERP) tamper-evident: a bounce names only a send Letterbox made. */
export const bounceTokenConfig = {
  BOUNCE_TOKEN_SECRET: demoSecret(z.string().min(32, 'must be at least 32 characters'), '6892f9afd362f35b24cd282592cd6e6fb845f274ed6a43140217eacddbe1ef01'),
};

/**
 * The key of the SRS addresses redirected mail goes out from (SRS0=hash=day=domain=local@ours): a bounce
 * to one goes back to the original sender, and an address no one made with this key is refused.
 */
export const srsConfig = {
  SRS_SECRET: demoSecret(z.string().min(32, 'must be at least 32 characters'), 'c1d0f8a2b9e34f7c8a51d26e0b7f4a93de85c6b1a07f29e4d3b8c5a61f0e7d24'),
};

/** rspamd, which scores incoming mail (its scanner, RSPAMD_URL) and learns from users' reports (its controller). */
export const spamCheckConfig = {
  /** Score every incoming message with rspamd; false stores it unscored (the benchmark's A/B). */
  SPAM_CHECK: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  RSPAMD_URL: z.url({ protocol: /^http$/, message: "must be an http:// URL: rspamd's scanner speaks plain HTTP" }).default('http://127.0.0.1:11333'),
  RSPAMD_CONTROLLER_URL: z.url({ protocol: /^https?$/, message: 'must be an http:// URL' }).default('http://127.0.0.1:11334'),
  /** The controller's password (scripts/rspamd.sh writes it into rspamd's configuration). */
  RSPAMD_PASSWORD: demoSecret(z.string().min(8, 'must be at least 8 characters'), 'letterbox-rspamd'),
  /** Messages one worker process has rspamd score at once; the others wait their turn. */
  SPAM_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  /** What one message's scoring may take, waiting for its turn included, in ms; past it the message is stored unscored. */
  SPAM_CHECK_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  /** Larger messages are stored unscored: spam is small, and rspamd would read all of it. */
  SPAM_CHECK_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 ** 2)
    .default(2 * 1024 ** 2),
};
