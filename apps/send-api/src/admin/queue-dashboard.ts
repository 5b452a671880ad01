import { timingSafeEqual } from 'node:crypto';
import fastifyBasicAuth from '@fastify/basic-auth';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { FailedAttemptLimiter } from '@letterbox/auth';
import { problemBody, sendProblem } from '@letterbox/http';
import type { JobQueues } from '@letterbox/queue';

const BASE_PATH = '/admin/queues';
const NO_CREDENTIALS = 'FST_BASIC_AUTH_MISSING_OR_BAD_AUTHORIZATION_HEADER';

class TooManyGuesses extends Error {
  readonly statusCode = 429;

  constructor(readonly secondsToWait: number) {
    super(`too many wrong passwords; try again in ${secondsToWait} s`);
  }
}

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
    await scope.register(fastifyBasicAuth, {
      authenticate: { realm: 'Letterbox queues' },
      // Checked before the password, so that past the limit even the right one waits.
      validate: async (username, password, request) => {
        const account = `dashboard:${username}`;
        const wait = await attempts.secondsToWait(account, request.ip);
        if (wait > 0) throw new TooManyGuesses(wait);
        const presented = Buffer.from(`${username}:${password}`);
        if (presented.length === expected.length && timingSafeEqual(presented, expected)) return;
        await attempts.recordFailure(account, request.ip);
        throw new Error('wrong dashboard credentials');
      },
    });
    // bull-board answers its own routes' errors, so a refusal is answered here, not by an error handler.
    scope.addHook('onRequest', async (request, reply) => {
      const refused = await new Promise<Partial<FastifyError> | undefined>((resolve) => scope.basicAuth(request, reply, (error) => resolve(error)));
      if (!refused) return;
      // A browser's first request carries no credentials: not a guess, but an address past its limit still waits.
      const wait =
        refused instanceof TooManyGuesses
          ? refused.secondsToWait
          : refused.code === NO_CREDENTIALS
            ? await attempts.secondsToWait('dashboard:', request.ip)
            : 0;
      if (wait > 0)
        return sendProblem(reply.removeHeader('www-authenticate'), problemBody(429, `too many wrong passwords; try again in ${wait} s`), {
          'retry-after': String(wait),
        });
      return sendProblem(reply, problemBody(401, 'sign in with the dashboard credentials (ADMIN_USERNAME / ADMIN_PASSWORD)'));
    });
    await scope.register(board.registerPlugin(), { prefix: BASE_PATH });
  });
}
