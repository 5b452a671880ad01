import type { FastifyInstance } from 'fastify';
import { problemBody, sendProblem } from './problem-response';

export interface CrossOriginPolicy {
  /** Browser origins allowed to call the API. */
  origins: string[];
  /** Response headers a page of those origins may read. */
  exposedHeaders: string[];
  /** Paths that answer no origin at all, and no preflight. */
  refusedPaths: RegExp;
}

/** Every method the APIs' routes take: a preflight for PATCH or DELETE must be allowed too. */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * CORS for the configured origins, never with credentials (bearer tokens, never cookies): an allowed origin is echoed
 * with the headers it may read, and a preflight (OPTIONS with Access-Control-Request-Method) is answered 204 with the
 * methods and the request headers it asked for. Every answer varies by Origin, as its headers depend on it.
 * A hook of our own: @fastify/cors behind Nest's per-request delegator rebuilt its options on every request, about a
 * twentieth of the main thread's time on a revalidated mailbox list.
 */
export function answerCrossOrigin(fastify: FastifyInstance, { origins, exposedHeaders, refusedPaths }: CrossOriginPolicy): void {
  const allowed = new Set(origins);
  const exposed = exposedHeaders.join(', ');
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('vary', 'Origin');
    if (refusedPaths.test(request.url)) return done();
    const origin = request.headers.origin;
    if (origin !== undefined && allowed.has(origin)) void reply.header('access-control-allow-origin', origin);
    void reply.header('access-control-expose-headers', exposed);
    if (request.method !== 'OPTIONS') return done();
    const method = request.headers['access-control-request-method'];
    if (origin === undefined || method === undefined) {
      const missing = origin === undefined ? 'Origin' : 'Access-Control-Request-Method';
      void sendProblem(reply, problemBody(400, `a preflight request needs the ${missing} header`, { errors: [{ field: missing, message: 'missing' }] }));
      return;
    }
    const requestedHeaders = request.headers['access-control-request-headers'];
    void reply.header('access-control-allow-methods', ALLOWED_METHODS).header('vary', 'Origin, Access-Control-Request-Headers');
    if (requestedHeaders !== undefined) void reply.header('access-control-allow-headers', requestedHeaders);
    // Safari waits for a body on a 204 without a length.
    void reply.status(204).header('content-length', '0').send();
  });
  // A route for every path's preflight, so that it reaches the hook above; one it did not answer has no route.
  fastify.options('*', (request, reply) => {
    const path = request.url.split('?')[0];
    return sendProblem(reply, problemBody(404, `no route answers OPTIONS ${path}`, { instance: path }));
  });
}
