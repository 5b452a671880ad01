import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JobQueues } from '@letterbox/queue';

const BASE_PATH = '/admin/queues';

/** bull-board for every Letterbox queue at /admin/queues, behind HTTP Basic sign-in. */
export async function mountQueueDashboard(app: NestFastifyApplication, queues: JobQueues, credentials: { username: string; password: string }): Promise<void> {
  const board = new FastifyAdapter();
  board.setBasePath(BASE_PATH);
  createBullBoard({ queues: queues.all().map((queue) => new BullMQAdapter(queue)), serverAdapter: board });
  const expected = Buffer.from(`${credentials.username}:${credentials.password}`);
  await app.register(async (scope: FastifyInstance) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const given = Buffer.from(decodeBasic(request.headers.authorization) ?? '');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return;
      await reply
        .status(401)
        .header('www-authenticate', 'Basic realm="Letterbox queues", charset="UTF-8"')
        .header('content-type', 'application/problem+json')
        .send({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'sign in with the dashboard credentials (ADMIN_USERNAME / ADMIN_PASSWORD)' });
    });
    await scope.register(board.registerPlugin(), { prefix: BASE_PATH });
  });
}

function decodeBasic(header: string | undefined): string | undefined {
  if (!header?.startsWith('Basic ')) return undefined;
  return Buffer.from(header.slice(6), 'base64').toString('utf8');
}
