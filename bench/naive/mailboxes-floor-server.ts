import Fastify from 'fastify';
import { z } from 'zod';
import { loadConfig, portFrom } from '@letterbox/config';

/**
 * The floor of GET /v2/mailboxes on this machine: plain Fastify answering the same JSON the
 * read API answered alice (MAILBOXES_FLOOR_BODY), with no sign-in, no database, no framework.
 * The mailboxes scenario reports the read API beside it, from the same run.
 */
const settings = { MAILBOXES_FLOOR_PORT: portFrom(3938), MAILBOXES_FLOOR_BODY: z.string().min(2) };

async function start(): Promise<void> {
  const config = loadConfig(settings);
  const app = Fastify();
  app.get('/health', async () => ({ status: 'ok', pid: process.pid }));
  app.get('/v2/mailboxes', async (_request, reply) => reply.type('application/json; charset=utf-8').send(config.MAILBOXES_FLOOR_BODY));
  await app.listen({ port: config.MAILBOXES_FLOOR_PORT, host: '127.0.0.1' });
}

void start();
