import { isTimeBasedCode, recoveryCodeHash, type FailedAttemptLimiter, type TimeBasedCodes } from '@letterbox/auth';
import { TooManyWrongPasswordsError } from '../account-errors';
import type { TwoFactorStore } from './two-factor-store';

/** How a second factor was proven. */
export type SecondFactorProof = 'totp' | 'recovery-code';

/**
 * Checks the code given at sign-in: the authenticator's current code (once: TimeBasedCodes remembers the step), or
 * an unused recovery code, which is used up. Wrong codes are counted like wrong passwords, per account and client
 * address, in a limiter of their own: past it, TooManyWrongPasswordsError.
 */
export class SecondFactorCheck {
  constructor(
    private readonly store: TwoFactorStore,
    private readonly codes: TimeBasedCodes,
    private readonly attempts: FailedAttemptLimiter,
  ) {}

  /** How the code proved the factor, or undefined when it did not (counted); `lockedNow` says the count reached the account's limit. */
  async check(
    user: { id: number; email: string; totpSecret: string | null },
    code: string,
    clientAddress: string,
  ): Promise<{ proof?: SecondFactorProof; lockedNow?: boolean }> {
    const wait = await this.attempts.secondsToWait(user.email, clientAddress);
    if (wait > 0) throw new TooManyWrongPasswordsError(wait);
    if (user.totpSecret && isTimeBasedCode(code)) {
      if (await this.codes.take(user.id, user.totpSecret, code)) return { proof: 'totp' };
    } else if (await this.store.useRecoveryCode(user.id, recoveryCodeHash(code))) {
      return { proof: 'recovery-code' };
    }
    return { lockedNow: await this.attempts.recordFailure(user.email, clientAddress) };
  }
}
