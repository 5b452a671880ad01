import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * Fastify's own JSON parser (with its prototype-poisoning guards), whose failures become
 * field errors on `body`. Left to Nest, a Fastify parse error reaches the error filter as
 * a bare message that names no field.
 */
export function useJsonBodyParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (error, value) => {
      if (!error) return done(null, value);
      const message = `is not valid JSON: ${error.message}`;
      done(new BadRequestException({ detail: `body: ${message}`, errors: [{ field: 'body', message }] }), undefined);
    });
  });
}
