import Fastify from 'fastify';
import { Pool } from 'pg';
import { AccessTokens } from '@letterbox/auth';
import { authConfig, databaseConfig, loadConfig, portFrom, storageConfig } from '@letterbox/config';
import { createBlobStore } from '@letterbox/storage';
import { naiveMailDetail, NaiveHttpError } from './naive-mail-detail';
import { naiveMailPage } from './naive-mail-list';
import { naiveSearch, type NaiveSearchRequest } from './naive-search';

/**
 * The read paths as they are commonly first written, served for bench/ to measure the
 * read API against; the harness starts and stops it. Plain Fastify rather than NestJS on
 * Fastify: Nest's guards and pipes cost CPU on every request, so leaving them out
 * favours this side, and what the read API still wins by comes from its queries and
 * its way of reading EML, not from the framework.
 */
const settings = { NAIVE_READ_PORT: portFrom(3900), ...databaseConfig, ...storageConfig, ...authConfig };

async function start(): Promise<void> {
  const config = loadConfig(settings);
  // The read API's pool size, so neither side has more database connections.
  const sql = new Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE, application_name: 'letterbox-bench-naive' });
  sql.on('error', (error) => console.error(`[db] idle connection error: ${error.message}`));
  const blobs = createBlobStore(config);
  // The read API's secret and lifetime, so its bearer tokens work here unchanged.
  const tokens = new AccessTokens(config.AUTH_TOKEN_SECRET, config.AUTH_TOKEN_TTL_SECONDS);
  const signedInUser = (authorization: string | undefined): number => {
    const claims = authorization?.startsWith('Bearer ') ? tokens.verify(authorization.slice(7).trim()) : undefined;
    if (!claims) throw new NaiveHttpError(401, 'a valid bearer token is required');
    return claims.userId;
  };

  const app = Fastify();
  app.get('/health', async () => ({ status: 'ok', pid: process.pid, rssBytes: process.memoryUsage.rss() }));
  app.get<{ Querystring: { limit?: string } }>('/naive/mails', async (request) =>
    naiveMailPage(sql, signedInUser(request.headers.authorization), pageSize(request.query.limit)),
  );
  app.get<{ Querystring: NaiveSearchQuery }>('/naive/search', async (request) =>
    naiveSearch(sql, signedInUser(request.headers.authorization), naiveSearchRequest(request.query), pageSize(request.query.limit)),
  );
  app.get<{ Params: { id: string } }>('/naive/mails/:id', async (request) =>
    naiveMailDetail(sql, blobs, signedInUser(request.headers.authorization), mailId(request.params.id)),
  );
  app.setErrorHandler((error, _request, reply) => {
    const status = error instanceof NaiveHttpError ? error.status : 500;
    if (status === 500) console.error(error);
    return reply.status(status).send({ status, detail: error instanceof Error ? error.message : String(error) });
  });
  await app.listen({ port: config.NAIVE_READ_PORT, host: '127.0.0.1' });
  console.log(`naive read server listening on http://127.0.0.1:${config.NAIVE_READ_PORT}`);
}

function pageSize(text: string | undefined): number {
  const limit = Number(text ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new NaiveHttpError(400, 'limit must be 1 to 100');
  return limit;
}

/** `/naive/search`'s parameters: `q` the body text, then one per operator (`attachment=1`, `unread=1`, dates as ISO). */
type NaiveSearchQuery = Partial<Record<'q' | 'limit' | 'from' | 'to' | 'subject' | 'attachment' | 'unread' | 'mailbox' | 'after' | 'before', string>>;

function naiveSearchRequest(query: NaiveSearchQuery): NaiveSearchRequest {
  return {
    text: query.q,
    from: query.from,
    to: query.to,
    subject: query.subject,
    hasAttachments: query.attachment === '1',
    unread: query.unread === '1',
    mailbox: query.mailbox,
    after: query.after === undefined ? undefined : dateParameter('after', query.after),
    before: query.before === undefined ? undefined : dateParameter('before', query.before),
  };
}

function dateParameter(name: string, text: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new NaiveHttpError(400, `${name} must be a date`);
  return date;
}

function mailId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1) throw new NaiveHttpError(400, 'the mail id must be a positive integer');
  return id;
}

start().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
