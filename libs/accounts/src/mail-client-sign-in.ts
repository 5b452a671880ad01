import { hashPassword, verifyPassword, type FailedAttemptLimiter } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { AccountDisabledError, AppPasswordRequiredError, TooManyWrongPasswordsError, WrongCredentialsError } from './account-errors';
import type { SecurityEvents } from './security-events';
import { subjectOf, unknownSubject } from './sign-in-subjects';

/** Whom a mail client (IMAP) signed in as. */
export interface MailClientUser {
  id: number;
  officeId: number;
  email: string;
}

export interface MailClientSignInServices {
  db: Database;
  /** The API's wrong-password counters: a guesser gains nothing by switching between the API and IMAP. */
  passwordAttempts: FailedAttemptLimiter;
  events: SecurityEvents;
}

/**
 * The sign-in of a mail client (IMAP LOGIN, AUTHENTICATE PLAIN) with an email and a password: the API's
 * checks (Authentication.signIn) where a client can answer them. It cannot type a second factor, so an account
 * with two-factor sign-in on is refused with AppPasswordRequiredError, and a locked account stays locked.
 * Failures are counted and audited as the API's are; `protocol` says in the audit log which client signed in.
 */
export class MailClientSignIn {
  /** Verified against when no user has the email, so a wrong address takes as long as a wrong password. */
  private readonly decoyHash = hashPassword('letterbox-decoy-password');

  constructor(
    private readonly services: MailClientSignInServices,
    private readonly protocol: string,
  ) {}

  async signIn(email: string, password: string, clientAddress: string): Promise<MailClientUser> {
    const { db, passwordAttempts, events } = this.services;
    const account = email.toLowerCase();
    const waits = await passwordAttempts.waits(account, clientAddress);
    if (waits.client > 0) throw new TooManyWrongPasswordsError(waits.client);
    const user = await db.prisma.user.findUnique({
      where: { email: account },
      select: { id: true, officeId: true, email: true, state: true, passwordHash: true, totpEnabledAt: true },
    });
    const valid = await verifyPassword(user?.passwordHash ?? (await this.decoyHash), password);
    const details = { protocol: this.protocol };
    if (!user || !valid) {
      const lockedNow = await passwordAttempts.recordFailure(account, clientAddress);
      const subject = user ? subjectOf(user) : await unknownSubject(db, account);
      await events.record('auth.sign-in.failed', subject, clientAddress, { ...details, reason: 'wrong password' });
      if (lockedNow) await events.record('auth.lockout', subject, clientAddress, { ...details, factor: 'password' });
      if (waits.account > 0) throw new TooManyWrongPasswordsError(waits.account);
      throw new WrongCredentialsError();
    }
    // No second factor can pass the lock here; the webmail can.
    if (waits.account > 0) throw new TooManyWrongPasswordsError(waits.account);
    if (user.state !== 'active') {
      await events.record('auth.sign-in.failed', subjectOf(user), clientAddress, { ...details, reason: 'disabled' });
      throw new AccountDisabledError();
    }
    if (user.totpEnabledAt) {
      await events.record('auth.sign-in.failed', subjectOf(user), clientAddress, { ...details, reason: 'app password required' });
      throw new AppPasswordRequiredError();
    }
    await passwordAttempts.recordSuccess(account);
    await events.record('auth.sign-in', subjectOf(user), clientAddress, details);
    return { id: user.id, officeId: user.officeId, email: user.email };
  }
}
