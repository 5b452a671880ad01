import type { AccountSetup } from './user-sessions';

export interface AuthenticatedUser {
  userId: number;
  officeId: number;
  /** The token's version of the user's revocations: an event stream asks again whether it still stands. */
  tokenVersion: number;
  /** The token family the request's token belongs to: a sign-out of this session ends it. */
  sessionId: string;
  /** When the request's token expires, seconds since the epoch: what lives on (an event stream) ends then. */
  tokenExpiresAt: number;
  /** What the user must do before anything else; only the routes that do it (AllowedDuringSetup) answer meanwhile. */
  setupRequired?: AccountSetup;
}
