import {
  createParamDecorator,
  Injectable,
  SetMetadata,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AccessTokens } from './access-tokens';
import { bearerTokenOf } from './bearer-token';

export interface AuthenticatedUser {
  userId: number;
  officeId: number;
  /** When the request's token expires, seconds since the epoch: what lives on (an event stream) ends then. */
  tokenExpiresAt: number;
}

const PUBLIC_ROUTE = 'letterbox:public-route';

/** Marks a route (or controller) that needs no token. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

type AuthenticatedRequest = FastifyRequest & { user?: AuthenticatedUser };

/** Global guard: every route needs `Authorization: Bearer <accessToken>` unless marked @Public(). */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokens,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerTokenOf(request);
    if (!token) throw new UnauthorizedException('a bearer token is required in the Authorization header');
    const claims = this.tokens.verify(token);
    if (!claims) throw new UnauthorizedException('the access token is invalid or has expired; sign in again');
    request.user = { userId: claims.userId, officeId: claims.officeId, tokenExpiresAt: claims.expiresAt };
    return true;
  }
}

/** The signed-in user of a route guarded by BearerAuthGuard. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedUser => {
  const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user;
  if (!user) throw new UnauthorizedException('sign in first');
  return user;
});
