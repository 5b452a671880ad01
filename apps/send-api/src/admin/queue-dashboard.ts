import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FailedAttemptLimiter } from '@letterbox/auth';
import { problemBody } from '@letterbox/http';
import type { JobQueues } from '@letterbox/queue';

const BASE_PATH = '/admin/queues';

/**
 * bull-board for every Letterbox queue at /admin/queues, behind HTTP Basic sign-in whose wrong guesses are
 * limited as the API's sign-in is (per name tried and per client address, in Redis): past them 429.
 */
export async function mountQueueDashboard(
  app: NestFastifyApplication,
  queues: JobQueues,
  credentials: { username: string; password: string },
  attempts: FailedAttemptLimiter,
): Promise<void> {
  const board = new FastifyAdapter();
  board.setBasePath(BASE_PATH);
  createBullBoard({ queues: queues.all().map((queue) => new BullMQAdapter(queue)), serverAdapter: board });
  const expected = Buffer.from(`${credentials.username}:${credentials.password}`);
  await app.register(async (scope: FastifyInstance) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const given = decodeBasic(request.headers.authorization);
      const account = `dashboard:${given?.split(':')[0] ?? ''}`;
      const wait = await attempts.secondsToWait(account, request.ip);
      if (wait > 0) {
        await reply.status(429).header('retry-after', String(wait)).header('content-type', 'application/problem+json').send(problemBody(429, `too many wrong passwords; try again in ${wait} s`));
        return;
      }
      const presented = Buffer.from(given ?? '');
      if (presented.length === expected.length && timingSafeEqual(presented, expected)) return;
      // A browser's first request carries no credentials: only a wrong pair counts as a guess.
      if (given !== undefined) await attempts.recordFailure(account, request.ip);
      await reply
        .status(401)
        .header('www-authenticate', 'Basic realm="Letterbox queues", charset="UTF-8"')
        .header('content-type', 'application/problem+json')
        .send(problemBody(401, 'sign in with the dashboard credentials (ADMIN_USERNAME / ADMIN_PASSWORD)'));
    });
    await scope.register(board.registerPlugin(), { prefix: BASE_PATH });
  });
}

function decodeBasic(header: string | undefined): string | undefined {
  if (!header?.startsWith('Basic ')) return undefined;
  return Buffer.from(header.slice(6), 'base64').toString('utf8');
}
