import type { Readable } from 'node:stream';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import { databaseConfig, ingestTokenConfig, loadConfig, portFrom, quotaConfig, redisConfig, storageConfig } from '@letterbox/config';
import { createInboundIntake } from '@letterbox/ingest';
import { createJobQueues } from '@letterbox/queue';
import { DiskBlobStore } from '@letterbox/storage';

/**
 * The intake as it was before the spool, served for bench/ to measure the ingest app
 * against: each message streamed into its own file, fsync'd, and its folder fsync'd
 * before the 202 (acceptances and jobs batched as the app batches them). Plain Fastify,
 * no Nest and no metrics: both favour this side. Jobs go to the same queue as the app's,
 * so the same ingest worker stores and notifies them.
 */
const settings = {
  NAIVE_INGEST_PORT: portFrom(3937),
  ...databaseConfig,
  ...redisConfig,
  ...storageConfig,
  ...ingestTokenConfig,
  ...quotaConfig,
};

const MAX_MESSAGE_BYTES = 30 * 1024 * 1024;

async function start(): Promise<void> {
  const config = loadConfig(settings);
  const sql = new Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE, application_name: 'letterbox-bench-naive-ingest' });
  sql.on('error', (error) => console.error(`[db] idle connection error: ${error.message}`));
  const intake = createInboundIntake({
    sql,
    blobs: new DiskBlobStore(config.STORAGE_DIR),
    references: new DatabaseBlobReferences(sql),
    queues: createJobQueues(config),
    maxMessageBytes: MAX_MESSAGE_BYTES,
    defaultQuotaBytes: config.USER_QUOTA_BYTES,
  });

  const app = Fastify({ bodyLimit: MAX_MESSAGE_BYTES });
  app.addContentTypeParser('message/rfc822', (_request, payload, done) => done(null, payload));
  app.get('/health', async () => ({ status: 'ok', pid: process.pid }));
  app.post('/v2/inbound', async (request, reply) => {
    const content = request.body as Readable;
    if (request.headers.authorization !== `Bearer ${config.INGEST_TOKEN}`) {
      content.resume();
      return reply.code(401).send({ detail: 'a valid gateway token is required' });
    }
    const to = (request.query as { to?: string | string[] }).to;
    try {
      const accepted = await intake.accept({ content, envelopeRecipients: to === undefined ? undefined : [to].flat(), origin: { channel: 'http' } });
      return await reply.code(202).send(accepted);
    } catch (error) {
      return reply.code(503).send({ detail: (error as Error).message });
    }
  });
  await app.listen({ port: config.NAIVE_INGEST_PORT, host: '127.0.0.1' });
}

void start();
