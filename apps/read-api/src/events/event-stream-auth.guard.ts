import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bearerTokenOf, refuseDuringSetup, TokenAuthenticator, type AuthenticatedUser } from '@letterbox/auth';

type EventStreamRequest = FastifyRequest<{ Querystring: { access_token?: unknown } }> & { user?: AuthenticatedUser };

/**
 * The event stream's own check of the bearer token, which it also takes from the
 * `access_token` query parameter: a browser's EventSource cannot send an Authorization
 * header. Only this route accepts a token in its URL (URLs end up in logs and histories).
 * It leaves the user where CurrentUser finds it, and refuses a user who must first change
 * their password or set up TOTP, as BearerAuthGuard does.
 */
@Injectable()
export class EventStreamAuthGuard implements CanActivate {
  constructor(private readonly authenticator: TokenAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<EventStreamRequest>();
    const token = tokenOf(request);
    if (token === undefined) {
      throw new UnauthorizedException('a bearer token is required in the Authorization header or the access_token query parameter');
    }
    request.user = await this.authenticator.authenticate(token);
    refuseDuringSetup(request.user);
    return true;
  }
}

/** The header's token when there is the header (a malformed one is not passed over for the query's), else the query's. */
function tokenOf(request: EventStreamRequest): string | undefined {
  const header = bearerTokenOf(request);
  if (header !== undefined) return header;
  const query = request.query.access_token;
  if (query === undefined) return undefined;
  return typeof query === 'string' ? query : '';
}
