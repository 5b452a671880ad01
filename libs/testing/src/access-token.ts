import { AccessTokens } from '@letterbox/auth';
import { authConfig, loadConfig } from '@letterbox/config';

/** An access token as the read API's login issues it, signed with the shared secret. */
export function accessTokenFor(user: { id: number; officeId: number }): string {
  const { AUTH_TOKEN_SECRET } = loadConfig(authConfig);
  return new AccessTokens(AUTH_TOKEN_SECRET, 3600).issue({ userId: user.id, officeId: user.officeId, tokenVersion: 0 }).accessToken;
}
