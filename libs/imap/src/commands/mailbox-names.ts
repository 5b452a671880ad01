import { decodeMailboxName, encodeMailboxName } from '../protocol/mailbox-name-utf7';
import { imapString, type ResponsePart } from '../protocol/response-format';
import { textOf, type Token } from '../protocol/tokens';
import type { Session } from '../session/command-handler';

const utf8 = (session: Session) => session.enabled.has('UTF8=ACCEPT');

/** A mailbox name the client sent: modified UTF-7 unless it enabled UTF8=ACCEPT (RFC 6855). */
export function mailboxNameArgument(token: Token | undefined, session: Session): string {
  const text = textOf(token, 'a mailbox name');
  return utf8(session) ? text : decodeMailboxName(text);
}

/** A mailbox name as this session is sent it. */
export function mailboxNamePart(name: string, session: Session): ResponsePart {
  return utf8(session) ? imapString(name, true) : imapString(encodeMailboxName(name));
}
