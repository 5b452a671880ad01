import { hashPassword, verifyPassword, type FailedAttemptLimiter, type KnownClientAddresses } from '@letterbox/auth';
import { namedStatement, type Database } from '@letterbox/db';
import {
  AccountDisabledError,
  AccountSetupRequiredError,
  AppPasswordRequiredError,
  TooManyWrongPasswordsError,
  WrongCredentialsError,
} from '../account-errors';
import { appPasswordHash, looksLikeAppPassword } from '../app-passwords/app-password-secret';
import type { AppPasswordStore } from '../app-passwords/app-password-store';
import type { SecurityEvents } from '../security-events';
import { subjectOf, unknownSubject } from '../sign-in-subjects';

/** The protocols a mail client signs in over; the audit log tells them apart. */
export type MailClientProtocol = 'smtp' | 'imap';

export interface MailClientSignInRequest {
  /** What the client gave as its user name: the user's primary address or one of their aliases. */
  address: string;
  /** The account's password, or one of its app passwords. */
  password: string;
  clientAddress: string;
  protocol: MailClientProtocol;
}

/** Whom a mail client signed in as. */
export interface MailClientUser {
  id: number;
  officeId: number;
  /** Their primary address. */
  email: string;
}

export type SignInMailClient = (request: MailClientSignInRequest) => Promise<MailClientUser>;

export interface MailClientSignInServices {
  db: Database;
  /** The same counters as the API's sign-in: a guesser gains nothing by changing protocol. */
  passwordAttempts: FailedAttemptLimiter;
  knownClients: KnownClientAddresses;
  appPasswords: AppPasswordStore;
  events: SecurityEvents;
}

interface AccountRow {
  id: number;
  office_id: number;
  email: string;
  password_hash: string;
  active: boolean;
  totp_on: boolean;
  setup_required: boolean;
}

/** The user a primary address or an alias is of, with what signing them in needs. */
const ACCOUNT_OF_ADDRESS = namedStatement(
  'mail-client-account',
  `SELECT u.id, u.office_id, u.email, u.password_hash, u.state = 'active' AS active, u.totp_enabled_at IS NOT NULL AS totp_on,
          (u.password_change_required OR (o.require_totp AND u.totp_enabled_at IS NULL)) AS setup_required
     FROM users u JOIN offices o ON o.id = u.office_id
    WHERE u.id = COALESCE((SELECT id FROM users WHERE email = $1),
                          (SELECT user_id FROM addresses WHERE address = $1 AND kind IN ('primary', 'alias') LIMIT 1))`,
);

/**
 * Signing a mail client in (SMTP submission, IMAP), by a user's address (primary or alias) and password: the
 * account's password, or, once two-factor sign-in is on, only an app password, since a mail client cannot ask for a
 * code. Wrong passwords count in the API's FailedAttemptLimiter, per account and per client address; a locked
 * account still lets in a client address that signed in to it before, as the API does without a second factor.
 * Every sign-in and failure is a security event naming the protocol. An account that must first change its password
 * or set up two-factor sign-in, which only the webmail can do, is refused.
 */
export function mailClientSignIn(services: MailClientSignInServices): SignInMailClient {
  const { db, passwordAttempts, knownClients, appPasswords, events } = services;
  /** Verified against when no user has the address, so a wrong address takes as long as a wrong password. */
  const decoyHash = hashPassword('letterbox-decoy-password');

  return async ({ address, password, clientAddress, protocol }) => {
    // A NUL (which AUTH LOGIN's base64 may carry) is in no address, and PostgreSQL's text, the audit log's too, cannot hold it.
    const given = address.replaceAll('\u0000', '').trim().toLowerCase();
    const waits = await passwordAttempts.waits(given, clientAddress);
    if (waits.client > 0) throw new TooManyWrongPasswordsError(waits.client);
    const user = (await db.sql.query<AccountRow>({ ...ACCOUNT_OF_ADDRESS, values: [given] })).rows[0];
    // Counted under the primary address, as the API counts it: an alias is no second account to guess at.
    const account = user?.email ?? given;
    const accountWait = user ? (await passwordAttempts.waits(account, clientAddress)).account : waits.account;
    const appPassword = user && looksLikeAppPassword(password) ? await appPasswords.find(user.id, appPasswordHash(password)) : undefined;
    const passwordRight = !appPassword && (await verifyPassword(user?.password_hash ?? (await decoyHash), password));
    const subject = user ? subjectOf({ id: user.id, officeId: user.office_id, email: user.email }) : await unknownSubject(db, given);
    const details = { protocol, ...(appPassword ? { appPassword: appPassword.id } : {}) };
    if (!user || (!appPassword && !passwordRight)) {
      const lockedNow = await passwordAttempts.recordFailure(account, clientAddress);
      await events.record('auth.sign-in.failed', subject, clientAddress, { ...details, reason: 'wrong password' });
      if (lockedNow) await events.record('auth.lockout', subject, clientAddress, { protocol, factor: 'password' });
      if (accountWait > 0) throw new TooManyWrongPasswordsError(accountWait);
      throw new WrongCredentialsError();
    }
    const refusal = !user.active ? 'disabled' : user.setup_required ? 'setup required' : user.totp_on && !appPassword ? 'app password required' : undefined;
    if (refusal) {
      await events.record('auth.sign-in.failed', subject, clientAddress, { ...details, reason: refusal });
      if (refusal === 'disabled') throw new AccountDisabledError();
      throw refusal === 'setup required' ? new AccountSetupRequiredError() : new AppPasswordRequiredError();
    }
    if (accountWait > 0 && !(await knownClients.isKnown(user.id, clientAddress))) throw new TooManyWrongPasswordsError(accountWait);
    // A lock passed stays: the guesses that set it off keep counting, whoever got in.
    if (accountWait === 0) await passwordAttempts.recordSuccess(account);
    await knownClients.remember(user.id, clientAddress);
    if (appPassword) await appPasswords.touch(appPassword.id);
    await events.record('auth.sign-in', subject, clientAddress, accountWait > 0 ? { ...details, passedLock: true } : details);
    return { id: user.id, officeId: user.office_id, email: user.email };
  };
}
