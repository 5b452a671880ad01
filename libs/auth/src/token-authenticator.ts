import { Injectable, UnauthorizedException } from '@nestjs/common';
import { AccessTokens, type AccessTokenClaims } from './access-tokens';
import type { AuthenticatedUser } from './authenticated-user';
import { UserSessions } from './user-sessions';

/**
 * A bearer token's signature and expiry, then whether it still stands: same office, not revoked since, its session
 * not signed out, the account active. Both questions are answered from memory on nearly every request (UserSessions).
 */
@Injectable()
export class TokenAuthenticator {
  constructor(
    private readonly tokens: AccessTokens,
    private readonly sessions: UserSessions,
  ) {}

  // Not async: the standing's promise is the answer, with no second one around it (every request signs in here).
  authenticate(token: string): Promise<AuthenticatedUser> {
    const claims = this.tokens.verify(token);
    if (!claims) return Promise.reject(new UnauthorizedException('the access token is invalid or has expired; sign in again'));
    return this.standing(claims);
  }

  /** The user of a token taken earlier, as it stands now (what lives on, an event stream, asks again when something changed). */
  recheck(user: AuthenticatedUser): Promise<AuthenticatedUser> {
    return this.standing({ ...user, expiresAt: user.tokenExpiresAt });
  }

  private async standing(claims: AccessTokenClaims): Promise<AuthenticatedUser> {
    const [state, ended] = await Promise.all([this.sessions.stateOf(claims.userId), this.sessions.sessionEnded(claims.sessionId)]);
    if (!state || state.officeId !== claims.officeId || state.tokenVersion !== claims.tokenVersion || ended) {
      throw new UnauthorizedException('the access token was revoked (a sign-out, a new password or a removed account); sign in again');
    }
    if (!state.active) throw new UnauthorizedException('the account is disabled; ask an administrator');
    return {
      userId: claims.userId,
      officeId: claims.officeId,
      tokenVersion: claims.tokenVersion,
      sessionId: claims.sessionId,
      tokenExpiresAt: claims.expiresAt,
      ...(state.setupRequired && { setupRequired: state.setupRequired }),
    };
  }
}
