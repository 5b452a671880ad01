import { BadRequestException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** `Bearer <token>`; the scheme is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The token of the request's Authorization header: undefined without the header, '' when
 * it is not a bearer token. Node keeps only the first of repeated Authorization headers,
 * so a request that sends two (which credentials would win?) is refused outright.
 */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const { rawHeaders } = request.raw;
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) if (rawHeaders[index].toLowerCase() === 'authorization') count++;
  if (count > 1)
    throw new BadRequestException({ detail: 'header.authorization: send it once', errors: [{ field: 'header.authorization', message: 'send it once' }] });
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1] ?? '';
}
