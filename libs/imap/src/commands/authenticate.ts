import { continuation } from '../protocol/response-format';
import { atomOf, ImapCommandError, noMore } from '../protocol/tokens';
import type { CommandHandler } from '../session/command-handler';
import { NOT_SIGNED_IN } from '../session/session-state';
import { refuseWithoutTls, signIn } from './sign-in';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** AUTHENTICATE PLAIN (RFC 4616), its response with the command (SASL-IR, RFC 4959) or after a `+`. */
export const authenticate: CommandHandler = {
  states: NOT_SIGNED_IN,
  run: async (context) => {
    const { args, session } = context;
    noMore(args, 2);
    const mechanism = atomOf(args[0], 'a SASL mechanism').toUpperCase();
    if (mechanism !== 'PLAIN') throw new ImapCommandError(`${mechanism} is not offered; use PLAIN`, 'NO');
    refuseWithoutTls(context);
    let response = args[1] === undefined ? undefined : atomOf(args[1], 'an initial response');
    if (response === undefined) {
      session.send(continuation(''));
      response = await session.readContinuationLine();
      if (response === '*') throw new ImapCommandError('AUTHENTICATE cancelled');
    }
    const [authorizationId, email, password] = plainCredentials(response === '=' ? '' : response);
    if (authorizationId !== '' && authorizationId.toLowerCase() !== email.toLowerCase()) {
      throw new ImapCommandError('Signing in as another user is not allowed', 'NO', 'AUTHORIZATIONFAILED');
    }
    return signIn(context, email, password);
  },
};

/** PLAIN's message: authorization id, authentication id and password, NUL-separated, in base64. */
function plainCredentials(base64: string): [string, string, string] {
  if (!BASE64.test(base64)) throw new ImapCommandError('the response is not base64');
  const parts = Buffer.from(base64, 'base64').toString('utf8').split('\0');
  if (parts.length !== 3 || parts[1] === '') throw new ImapCommandError('a PLAIN response is authzid NUL authcid NUL password');
  return parts as [string, string, string];
}
