import type { Readable } from 'node:stream';
import Fastify from 'fastify';
import { loadConfig, portFrom } from '@letterbox/config';

/**
 * The floor of an intake on this machine: plain Fastify, a route that reads the whole
 * body and answers 202, nothing stored. A burst against it costs what 1,000 fresh
 * connections and requests cost, client and server on the same cores; an intake can only
 * come close to it, so the ingest burst reports the intake beside it, from the same run.
 */
const settings = { INTAKE_FLOOR_PORT: portFrom(3936) };

async function start(): Promise<void> {
  const config = loadConfig(settings);
  const app = Fastify({ bodyLimit: 30 * 1024 * 1024 });
  app.addContentTypeParser('message/rfc822', (_request, payload, done) => done(null, payload));
  app.get('/health', async () => ({ status: 'ok', pid: process.pid }));
  app.post('/v2/inbound', async (request, reply) => {
    for await (const chunk of request.body as Readable) void chunk;
    return reply.code(202).send({ accepted: true });
  });
  await app.listen({ port: config.INTAKE_FLOOR_PORT, host: '127.0.0.1' });
}

void start();
