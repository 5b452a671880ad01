import {
  hashPassword,
  newSessionId,
  verifyPassword,
  type AccessTokens,
  type AuthenticatedUser,
  type FailedAttemptLimiter,
  type KnownClientAddresses,
} from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { accountProfile, type AccountProfile } from './account-profile';
import { changePassword } from './accounts';
import {
  AccountDisabledError,
  TooManyWrongPasswordsError,
  TotpInvalidError,
  TotpRequiredError,
  UserGoneError,
  WrongCredentialsError,
  WrongCurrentPasswordError,
} from './account-errors';
import type { CachedUserSessions } from './cached-user-sessions';
import type { EventSubject, SecurityEvents } from './security-events';
import { subjectOf, unknownSubject } from './sign-in-subjects';
import type { SecondFactorCheck } from './two-factor/second-factor';

/** How the API shows a user beside a token. */
export interface UserProfile {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
  role: 'user' | 'admin';
}

/** What a sign-in (or a new password) answers: a bearer token, whose it is, and what the user must do first. */
export interface SignedIn {
  accessToken: string;
  tokenType: 'Bearer';
  /** ISO 8601. */
  expiresAt: string;
  user: UserProfile;
  /** An administrator set the password: every route but me, password and logout answers 403 until it is changed. */
  passwordChangeRequired: boolean;
  /** The office requires TOTP and the user has none: every route but me, logout, password and the TOTP setup answers 403 until it is set up. */
  totpSetupRequired: boolean;
}

export interface SignInRequest {
  email: string;
  password: string;
  /** The authenticator's code, or a recovery code. */
  totp?: string;
}

export interface AuthenticationServices {
  db: Database;
  tokens: AccessTokens;
  /** Wrong passwords, per account and client address. */
  passwordAttempts: FailedAttemptLimiter;
  knownClients: KnownClientAddresses;
  secondFactor: SecondFactorCheck;
  sessions: CachedUserSessions;
  events: SecurityEvents;
  /** USER_QUOTA_BYTES: the quota of a user without one of their own. */
  defaultQuotaBytes: number;
}

interface UserRecord {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
  role: 'user' | 'admin';
  state: 'active' | 'disabled';
  passwordHash: string;
  tokenVersion: number;
  passwordChangeRequired: boolean;
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  office: { requireTotp: boolean };
}

const USER_RECORD = {
  id: true,
  officeId: true,
  email: true,
  displayName: true,
  role: true,
  state: true,
  passwordHash: true,
  tokenVersion: true,
  passwordChangeRequired: true,
  totpSecret: true,
  totpEnabledAt: true,
  office: { select: { requireTotp: true } },
} as const;

/**
 * Signing in and out, and changing one's password. Wrong passwords are counted per account and per client address
 * (FailedAttemptLimiter, shared by every API process): past the address's limit, TooManyWrongPasswordsError. Past
 * the account's, which anyone can reach by guessing, the right password still gets in with more proof: a second
 * factor (TOTP on), or a client address that signed in to the account before (TOTP off). Every sign-in, failure,
 * lockout and sign-out is a security event in the audit log.
 */
export class Authentication {
  /** Verified against when no user has the email, so a wrong address takes as long as a wrong password. */
  private readonly decoyHash = hashPassword('letterbox-decoy-password');

  constructor(private readonly services: AuthenticationServices) {}

  async signIn(request: SignInRequest, clientAddress: string): Promise<SignedIn> {
    const { db, passwordAttempts, knownClients, events } = this.services;
    const account = request.email.toLowerCase();
    const waits = await passwordAttempts.waits(account, clientAddress);
    if (waits.client > 0) throw new TooManyWrongPasswordsError(waits.client);
    const user = await db.prisma.user.findUnique({ where: { email: account }, select: USER_RECORD });
    const valid = await verifyPassword(user?.passwordHash ?? (await this.decoyHash), request.password);
    const locked = waits.account > 0;
    if (!user || !valid) {
      const lockedNow = await passwordAttempts.recordFailure(account, clientAddress);
      const subject = user ? subjectOf(user) : await unknownSubject(db, account);
      await events.record('auth.sign-in.failed', subject, clientAddress, { reason: 'wrong password' });
      if (lockedNow) await events.record('auth.lockout', subject, clientAddress, { factor: 'password' });
      // While locked, an account with TOTP is asked for its code whatever the password: the answer tells nothing of it.
      if (locked && user?.totpEnabledAt && !request.totp) throw new TotpRequiredError();
      if (locked) throw new TooManyWrongPasswordsError(waits.account);
      throw new WrongCredentialsError();
    }
    const secondFactorPassed = locked && (await this.passLock(user, request.totp, clientAddress, waits.account));
    if (user.state !== 'active') {
      await events.record('auth.sign-in.failed', subjectOf(user), clientAddress, { reason: 'disabled' });
      throw new AccountDisabledError();
    }
    if (user.totpEnabledAt && !secondFactorPassed) await this.proveSecondFactor(user, request.totp, clientAddress);
    // A lock passed stays: the guesses that set it off keep counting, whoever got in.
    if (!locked) await passwordAttempts.recordSuccess(account);
    await knownClients.remember(user.id, clientAddress);
    await events.record('auth.sign-in', subjectOf(user), clientAddress, locked ? { passedLock: true } : {});
    return this.signedIn(user, newSessionId());
  }

  async profile(userId: number): Promise<AccountProfile> {
    const profile = await accountProfile(this.services.db, userId, this.services.defaultQuotaBytes);
    if (!profile) throw new UserGoneError();
    return profile;
  }

  /** Signs this session out: its tokens stop working in every API process; the user's other sessions stand. */
  async signOut(current: AuthenticatedUser, clientAddress: string): Promise<void> {
    const { sessions, tokens, events } = this.services;
    await sessions.endSession(current.userId, current.sessionId, tokens.ttlSeconds);
    await events.record('auth.sign-out', await this.subject(current.userId), clientAddress, { session: 'this' });
  }

  /** Signs out everywhere: every token of the user issued so far stops working, in every API process. */
  async signOutEverywhere(current: AuthenticatedUser, clientAddress: string): Promise<void> {
    const { sessions, events } = this.services;
    await sessions.revoke(current.userId);
    const subject = await this.subject(current.userId);
    await events.record('auth.sign-out', subject, clientAddress, { session: 'every' });
    await events.record('auth.token-revocation', subject, clientAddress, { reason: 'sign-out everywhere' });
  }

  /**
   * A new password ends every earlier token, so every other session; the answer carries a fresh token of this
   * session, so this client stays signed in. It clears an administrator's demand for a new password.
   */
  async changePassword(current: AuthenticatedUser, currentPassword: string, newPassword: string, clientAddress: string): Promise<SignedIn> {
    const { db, passwordAttempts, sessions, events } = this.services;
    const user = await this.user(current.userId);
    const wait = await passwordAttempts.secondsToWait(user.email, clientAddress);
    if (wait > 0) throw new TooManyWrongPasswordsError(wait);
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      await passwordAttempts.recordFailure(user.email, clientAddress);
      throw new WrongCurrentPasswordError();
    }
    const { tokenVersion } = await changePassword(db, sessions, user.id, newPassword);
    await events.record('auth.password-change', subjectOf(user), clientAddress);
    await events.record('auth.token-revocation', subjectOf(user), clientAddress, { reason: 'password change' });
    return this.signedIn({ ...user, tokenVersion, passwordChangeRequired: false }, current.sessionId);
  }

  /** Whether the locked account's right password comes with enough more proof; throws when it does not. True: a code was used. */
  private async passLock(user: UserRecord, totp: string | undefined, clientAddress: string, wait: number): Promise<boolean> {
    if (user.totpEnabledAt) {
      if (!totp) throw new TotpRequiredError();
      if (await this.secondFactorProven(user, totp, clientAddress)) return true;
      // Not TotpInvalidError: that would say the password was right.
      throw new TooManyWrongPasswordsError(wait);
    }
    if (await this.services.knownClients.isKnown(user.id, clientAddress)) return false;
    throw new TooManyWrongPasswordsError(wait);
  }

  private async proveSecondFactor(user: UserRecord, totp: string | undefined, clientAddress: string): Promise<void> {
    if (!totp) throw new TotpRequiredError();
    if (!(await this.secondFactorProven(user, totp, clientAddress))) throw new TotpInvalidError();
  }

  private async secondFactorProven(user: UserRecord, totp: string, clientAddress: string): Promise<boolean> {
    const { secondFactor, events } = this.services;
    const { proof, lockedNow } = await secondFactor.check(user, totp, clientAddress);
    if (proof === 'recovery-code') await events.record('auth.recovery-code.use', subjectOf(user), clientAddress);
    if (proof) return true;
    await events.record('auth.sign-in.failed', subjectOf(user), clientAddress, { reason: 'wrong second factor' });
    if (lockedNow) await events.record('auth.lockout', subjectOf(user), clientAddress, { factor: 'totp' });
    return false;
  }

  private async user(userId: number): Promise<UserRecord> {
    const user = await this.services.db.prisma.user.findUnique({ where: { id: userId }, select: USER_RECORD });
    if (!user) throw new UserGoneError();
    return user;
  }

  private async subject(userId: number): Promise<EventSubject> {
    return subjectOf(await this.user(userId));
  }

  private signedIn(user: UserRecord, sessionId: string): SignedIn {
    const token = this.services.tokens.issue({ userId: user.id, officeId: user.officeId, tokenVersion: user.tokenVersion, sessionId });
    return {
      accessToken: token.accessToken,
      tokenType: 'Bearer',
      expiresAt: token.expiresAt.toISOString(),
      user: { id: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName, role: user.role },
      passwordChangeRequired: user.passwordChangeRequired,
      totpSetupRequired: user.office.requireTotp && !user.totpEnabledAt,
    };
  }
}
