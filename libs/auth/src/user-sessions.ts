/** What must be done before the account may be used for anything but finishing it: an administrator's or the office's demand. */
export type AccountSetup = 'password-change' | 'totp-setup';

/** What a user's tokens must match to stand: their office, the token version of their last revocation, an active account. */
export interface SessionState {
  officeId: number;
  tokenVersion: number;
  /** False once an administrator disabled the account: its tokens stop at once. */
  active: boolean;
  /** Set while the user must change their password or set up TOTP: every other route refuses them. */
  setupRequired?: AccountSetup;
}

/**
 * What changed: one session of a user ended (`sessionId`), or anything of the user (a revocation, a new password,
 * a disable, a removal: `userId` alone), or, with neither, possibly anything of anyone (announcements were missed).
 */
export interface SessionChange {
  userId?: number;
  sessionId?: string;
}

/**
 * Where the guards ask whether a token still stands (libs/accounts keeps the answer). A password change, a
 * sign-out or an account's removal changes it, ending tokens issued before.
 */
export abstract class UserSessions {
  /** The user's current state, or undefined when the account no longer exists. */
  abstract stateOf(userId: number): Promise<SessionState | undefined>;

  /** Whether a sign-out ended this session (token family). */
  abstract sessionEnded(sessionId: string): Promise<boolean>;

  /** Calls `listener` after each change any process announces, once the answers above reflect it; the returned function stops. */
  abstract onChange(listener: (change: SessionChange) => void): () => void;
}
