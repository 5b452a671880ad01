import { newRecoveryCodes, recoveryCodeHash, verifyPassword, type AuthenticatedUser, type FailedAttemptLimiter, type TimeBasedCodes } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import {
  TooManyWrongPasswordsError,
  TotpAlreadyOnError,
  TotpInvalidError,
  TotpNotStartedError,
  UserGoneError,
  WrongCurrentPasswordError,
} from '../account-errors';
import type { CachedUserSessions } from '../cached-user-sessions';
import type { SecurityEvents } from '../security-events';
import type { TwoFactorStore } from './two-factor-store';

const RECOVERY_CODES = 10;

export interface TwoFactorSetupServices {
  db: Database;
  store: TwoFactorStore;
  codes: TimeBasedCodes;
  passwordAttempts: FailedAttemptLimiter;
  codeAttempts: FailedAttemptLimiter;
  sessions: CachedUserSessions;
  events: SecurityEvents;
}

/**
 * A user turning two-factor sign-in (TOTP) on and off: a secret to scan, kept pending until a code of it is
 * confirmed, then ten recovery codes shown once (kept hashed). Turning it off takes the password. Each change is
 * announced, so an office's demand for TOTP stops (or starts) gating the user's requests in every process.
 */
export class TwoFactorSetup {
  constructor(private readonly services: TwoFactorSetupServices) {}

  /** A new secret, pending until confirmed; one set up before and never confirmed is replaced. */
  async start(current: AuthenticatedUser): Promise<{ secret: string; otpauthUrl: string }> {
    const { store, codes } = this.services;
    const user = await this.user(current.userId);
    const secret = codes.newSecret();
    if (!(await store.start(user.id, secret))) throw new TotpAlreadyOnError();
    return { secret, otpauthUrl: codes.uri(secret, user.email) };
  }

  /** Turns TOTP on with a code of the pending secret; answers the recovery codes, which are never shown again. */
  async confirm(current: AuthenticatedUser, code: string, clientAddress: string): Promise<{ recoveryCodes: string[] }> {
    const { store, codes, codeAttempts, sessions, events } = this.services;
    const user = await this.user(current.userId);
    const factor = await store.of(user.id);
    if (factor?.enabled) throw new TotpAlreadyOnError();
    if (!factor?.secret) throw new TotpNotStartedError();
    const wait = await codeAttempts.secondsToWait(user.email, clientAddress);
    if (wait > 0) throw new TooManyWrongPasswordsError(wait);
    if (!(await codes.take(user.id, factor.secret, code))) {
      await codeAttempts.recordFailure(user.email, clientAddress);
      throw new TotpInvalidError();
    }
    const recoveryCodes = newRecoveryCodes(RECOVERY_CODES);
    // Another setup started meanwhile replaced the secret this code was of.
    if (!(await store.enable(user.id, factor.secret, recoveryCodes.map(recoveryCodeHash)))) throw new TotpNotStartedError();
    await events.record('auth.totp.enable', subjectOf(user), clientAddress);
    await sessions.announce(user.id);
    return { recoveryCodes };
  }

  /** Turns TOTP off (and forgets the recovery codes) once the password is typed again; counted like a sign-in's. */
  async disable(current: AuthenticatedUser, password: string, clientAddress: string): Promise<void> {
    const { store, passwordAttempts, sessions, events } = this.services;
    const user = await this.user(current.userId);
    const wait = await passwordAttempts.secondsToWait(user.email, clientAddress);
    if (wait > 0) throw new TooManyWrongPasswordsError(wait);
    if (!(await verifyPassword(user.passwordHash, password))) {
      await passwordAttempts.recordFailure(user.email, clientAddress);
      throw new WrongCurrentPasswordError();
    }
    await store.disable(user.id);
    await events.record('auth.totp.disable', subjectOf(user), clientAddress);
    await sessions.announce(user.id);
  }

  private async user(userId: number) {
    const user = await this.services.db.prisma.user.findUnique({
      where: { id: userId },
      select: { id: true, officeId: true, email: true, passwordHash: true },
    });
    if (!user) throw new UserGoneError();
    return user;
  }
}

const subjectOf = (user: { id: number; officeId: number; email: string }) => ({ userId: user.id, officeId: user.officeId, email: user.email });
