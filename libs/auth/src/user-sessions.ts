/** What a user's tokens must match to stand: their office, and the token version of their last revocation. */
export interface SessionState {
  officeId: number;
  tokenVersion: number;
}

/**
 * Where the guards ask whether a token still stands (libs/accounts keeps the answer). A password change, a
 * sign-out or an account's removal changes it, ending every token issued before.
 */
export abstract class UserSessions {
  /** The user's current state, or undefined when the account no longer exists. */
  abstract stateOf(userId: number): Promise<SessionState | undefined>;
}
