import { ImapCommandError } from '../protocol/tokens';
import { signInRefusal } from '../session/password-check';
import { ok, type CommandContext, type Completion } from '../session/command-handler';

/** LOGIN and AUTHENTICATE are refused in the clear unless the deployment allows it (RFC 3501 LOGINDISABLED). */
export function refuseWithoutTls({ session, services }: CommandContext): void {
  if (!session.secure && !services.allowPlaintext) throw new ImapCommandError('Sign in after STARTTLS, or on the implicit TLS port', 'NO', 'PRIVACYREQUIRED');
}

/** Signs the session in with the email and password, answering with the capabilities that now apply. */
export async function signIn({ session, services }: CommandContext, email: string, password: string): Promise<Completion> {
  const user = await services.checkPassword(email, password, session.clientAddress).catch((error: unknown) => {
    throw signInRefusal(error) ?? error;
  });
  if (!(await session.signedIn(user))) throw new ImapCommandError('Too many IMAP connections for this account; close some', 'NO', 'LIMIT');
  return ok('Signed in', `CAPABILITY ${session.capabilities().join(' ')}`);
}
