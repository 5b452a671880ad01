import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * Lets in the trusted mail gateways, which present the shared ingest token as a bearer
 * token. Compared in constant time, as digests, so neither content nor length leaks.
 */
export const GATEWAY_TOKEN = Symbol('GATEWAY_TOKEN');

@Injectable()
export class GatewayTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(GATEWAY_TOKEN) token: string) {
    this.expected = digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const presented = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    if (!presented) throw new UnauthorizedException('a gateway token is required: Authorization: Bearer <INGEST_TOKEN>');
    if (!timingSafeEqual(digest(presented.trim()), this.expected)) throw new UnauthorizedException('the gateway token is not valid');
    return true;
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
