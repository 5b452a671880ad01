import {
  AccountDisabledError,
  AccountSetupRequiredError,
  AppPasswordRequiredError,
  TooManyWrongPasswordsError,
  WrongCredentialsError,
  type MailClientUser,
} from '@letterbox/accounts';
import { ImapCommandError } from '../protocol/tokens';

/**
 * The one check LOGIN and AUTHENTICATE make of an email and a password (signInMailClient's): it answers whom
 * they sign in, or throws one of libs/accounts' sign-in errors.
 */
export type PasswordCheck = (email: string, password: string, clientAddress: string) => Promise<MailClientUser>;

/** A refused sign-in as IMAP says it (RFC 5530's response codes); any other error is left to the session. */
export function signInRefusal(error: unknown): ImapCommandError | undefined {
  if (error instanceof WrongCredentialsError) return new ImapCommandError('Invalid credentials', 'NO', 'AUTHENTICATIONFAILED');
  if (error instanceof TooManyWrongPasswordsError) {
    return new ImapCommandError(`Too many wrong passwords; try again in ${error.retryAfterSeconds} seconds`, 'NO', 'AUTHENTICATIONFAILED');
  }
  if (error instanceof AppPasswordRequiredError) {
    return new ImapCommandError(
      'Two-factor sign-in is on for this account: make an app password in the webmail and sign in with it',
      'NO',
      'AUTHENTICATIONFAILED',
    );
  }
  if (error instanceof AccountSetupRequiredError) {
    return new ImapCommandError('This account must be set up in the webmail first (a new password, or two-factor sign-in)', 'NO', 'CONTACTADMIN');
  }
  if (error instanceof AccountDisabledError) return new ImapCommandError('This account is disabled; ask an administrator', 'NO', 'CONTACTADMIN');
  return undefined;
}
