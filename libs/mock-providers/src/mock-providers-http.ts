import { problemBody, sendProblem, type ProblemDetails } from '@letterbox/http';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { fcmApiRoutes } from './fcm-api-routes';
import { fcmRoutes } from './fcm-routes';
import { createMockFcm, type MockFcm } from './mock-fcm';
import type { MockSmtp } from './mock-smtp';
import { InvalidRequest } from './parse-request';
import { smtpRoutes } from './smtp-routes';
import { loggerFor } from '@letterbox/observability';

const logger = loggerFor('mock-providers');

export interface MockProvidersHttpOptions {
  /** 3005 unless given; 0 picks a free port. */
  port?: number;
  host?: string;
  /** The mock FCM to serve; one with the default behaviour unless given. */
  mockFcm?: MockFcm;
}

/**
 * The control API of the mock providers, on plain Fastify: a test tool needs none of the
 * platform's Nest machinery. Each provider's routes live in their own plugin under their own
 * prefix; the mock FCM's send API is served here too.
 */
export async function startMockProvidersHttp(mockSmtp: MockSmtp, options: MockProvidersHttpOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setErrorHandler((error: FastifyError, request, reply) => sendProblem(reply, { ...toProblem(error), instance: request.url.split('?')[0] }));
  app.setNotFoundHandler((request, reply) => sendProblem(reply, problemBody(404, `no route for ${request.method} ${request.url.split('?')[0]}`)));
  app.get('/health', async () => ({ status: 'ok' }));
  await app.register(smtpRoutes, { prefix: '/smtp', mockSmtp });
  const mockFcm = options.mockFcm ?? createMockFcm();
  await app.register(fcmRoutes, { prefix: '/fcm', mockFcm });
  // FCM's own API, at FCM's own paths, so firebase-admin can be pointed at this server as it is.
  await app.register(fcmApiRoutes, { mockFcm });
  await app.listen({ port: options.port ?? 3005, host: options.host ?? '127.0.0.1' });
  return app;
}

function toProblem(error: FastifyError): ProblemDetails {
  if (error instanceof InvalidRequest) return problemBody(400, error.message, { errors: error.errors });
  // Fastify's own refusals: a body that is not JSON, too large, of another type.
  if (error.statusCode && error.statusCode < 500) {
    const aboutBody = error.code?.startsWith('FST_ERR_CTP');
    if (!aboutBody) return problemBody(error.statusCode, error.message);
    return problemBody(error.statusCode, `body: ${error.message}`, { errors: [{ field: 'body', message: error.message }] });
  }
  logger.error({ err: error }, 'the mock failed a request');
  return problemBody(500, 'the mock could not complete the request');
}
