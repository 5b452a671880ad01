import { hashPassword, verifyPassword, type AccessTokens, type FailedAttemptLimiter } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { changePassword } from './accounts';
import { TooManyWrongPasswordsError, UserGoneError, WrongCredentialsError, WrongCurrentPasswordError } from './account-errors';
import type { CachedUserSessions } from './cached-user-sessions';

/** How the API shows a user. */
export interface UserProfile {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
}

/** What a sign-in (or a new password) answers: a bearer token and whose it is. */
export interface SignedIn {
  accessToken: string;
  tokenType: 'Bearer';
  /** ISO 8601. */
  expiresAt: string;
  user: UserProfile;
}

interface UserRecord extends UserProfile {
  passwordHash: string;
  tokenVersion: number;
}

/**
 * Signing in and out, and changing one's password. Wrong passwords are counted per account and per client address
 * (FailedAttemptLimiter, shared by every API process): past the limit, TooManyWrongPasswordsError, for known and
 * unknown accounts alike.
 */
export class Authentication {
  /** Verified against when no user has the email, so a wrong address takes as long as a wrong password. */
  private readonly decoyHash = hashPassword('letterbox-decoy-password');

  constructor(
    private readonly db: Database,
    private readonly tokens: AccessTokens,
    private readonly attempts: FailedAttemptLimiter,
    private readonly sessions: CachedUserSessions,
  ) {}

  async signIn(email: string, password: string, clientAddress: string): Promise<SignedIn> {
    const account = email.toLowerCase();
    await this.refuseWhileLimited(account, clientAddress);
    const user = await this.db.prisma.user.findUnique({ where: { email: account } });
    const valid = await verifyPassword(user?.passwordHash ?? (await this.decoyHash), password);
    if (!user || !valid) {
      await this.attempts.recordFailure(account, clientAddress);
      throw new WrongCredentialsError();
    }
    await this.attempts.recordSuccess(account);
    return this.signedIn(user);
  }

  async profile(userId: number): Promise<UserProfile> {
    const { id, officeId, email, displayName } = await this.user(userId);
    return { id, officeId, email, displayName };
  }

  /** Signs out everywhere: every token of the user issued so far stops working, in every API process. */
  async signOut(userId: number): Promise<void> {
    await this.sessions.revoke(userId);
  }

  /** A new password ends every earlier token; the answer carries a fresh one, so the client stays signed in. */
  async changePassword(userId: number, currentPassword: string, newPassword: string, clientAddress: string): Promise<SignedIn> {
    const user = await this.user(userId);
    await this.refuseWhileLimited(user.email, clientAddress);
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      await this.attempts.recordFailure(user.email, clientAddress);
      throw new WrongCurrentPasswordError();
    }
    const { tokenVersion } = await changePassword(this.db, this.sessions, user.id, newPassword);
    return this.signedIn({ ...user, tokenVersion });
  }

  private async refuseWhileLimited(account: string, clientAddress: string): Promise<void> {
    const wait = await this.attempts.secondsToWait(account, clientAddress);
    if (wait > 0) throw new TooManyWrongPasswordsError(wait);
  }

  private async user(userId: number): Promise<UserRecord> {
    const user = await this.db.prisma.user.findUnique({ where: { id: userId } });
    if (!user) throw new UserGoneError();
    return user;
  }

  private signedIn(user: UserRecord): SignedIn {
    const token = this.tokens.issue({ userId: user.id, officeId: user.officeId, tokenVersion: user.tokenVersion });
    return {
      accessToken: token.accessToken,
      tokenType: 'Bearer',
      expiresAt: token.expiresAt.toISOString(),
      user: { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName },
    };
  }
}
