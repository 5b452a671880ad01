import { UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { refuseDuringSetup } from './account-setup';
import type { AuthenticatedUser } from './authenticated-user';
import { bearerTokenOf } from './bearer-token';
import type { TokenAuthenticator } from './token-authenticator';
import type { AccountSetup } from './user-sessions';

/**
 * The sign-in check of every route that is not public, for BearerAuthGuard and for the routes served beside Nest:
 * the request's bearer token as it stands now (401 without one or when it no longer stands), and a 403 while the
 * account needs a setup the route does not allow. Answered from memory on a warm session (UserSessions).
 */
export async function signedInUser(
  authenticator: TokenAuthenticator,
  request: FastifyRequest,
  allowedDuringSetup?: AccountSetup[],
): Promise<AuthenticatedUser> {
  const token = bearerTokenOf(request);
  if (!token) throw new UnauthorizedException('a bearer token is required in the Authorization header');
  const user = await authenticator.authenticate(token);
  refuseDuringSetup(user, allowedDuringSetup);
  return user;
}
