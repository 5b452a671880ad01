import { createParamDecorator, Injectable, SetMetadata, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ALLOWED_DURING_SETUP } from './account-setup';
import type { AuthenticatedUser } from './authenticated-user';
import { signedInUser } from './signed-in-user';
import { TokenAuthenticator } from './token-authenticator';
import type { AccountSetup } from './user-sessions';

const PUBLIC_ROUTE = 'letterbox:public-route';

/** Marks a route (or controller) that needs no token. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

type AuthenticatedRequest = FastifyRequest & { user?: AuthenticatedUser };

/**
 * Global guard: every route needs `Authorization: Bearer <accessToken>` unless marked @Public(); while the user
 * must change their password or set up TOTP, only the routes marked AllowedDuringSetup answer (403 otherwise).
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: TokenAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const allowed = this.reflector.getAllAndOverride<AccountSetup[]>(ALLOWED_DURING_SETUP, [context.getHandler(), context.getClass()]);
    request.user = await signedInUser(this.authenticator, request, allowed);
    return true;
  }
}

/** The signed-in user of a route guarded by BearerAuthGuard. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedUser => {
  const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user;
  if (!user) throw new UnauthorizedException('sign in first');
  return user;
});
