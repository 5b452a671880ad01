import type { FastifyInstance } from 'fastify';

/**
 * `text/plain` bodies read as one string, up to `bodyLimit` bytes: for routes whose body is a
 * document rather than JSON (a Sieve script). Past the limit Fastify answers 413.
 */
export function useTextBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit }, (_request, body, done) => done(null, body));
}
