import { ENABLEABLE } from '../commands/enable';

/** What every session offers: only what is implemented (RFC 3501 7.2.1). */
const ALWAYS = [
  'IMAP4rev1',
  'LITERAL+',
  'SASL-IR',
  'ID',
  'ENABLE',
  'IDLE',
  'NAMESPACE',
  'SPECIAL-USE',
  'LIST-EXTENDED',
  'LIST-STATUS',
  'UNSELECT',
  'UIDPLUS',
  'MOVE',
  'ESEARCH',
  'BINARY',
  'SEARCHRES',
  'SORT',
  'SORT=DISPLAY',
  'THREAD=ORDEREDSUBJECT',
  'THREAD=REFERENCES',
  ...ENABLEABLE,
];

/**
 * The capabilities of a session now: before sign-in STARTTLS while in the clear and a certificate is set, and
 * LOGINDISABLED instead of AUTH=PLAIN while signing in would send the password in the clear.
 */
export function capabilitiesOf(session: { state: string; secure: boolean }, options: { allowPlaintext: boolean; tls: boolean }): string[] {
  if (session.state !== 'not-authenticated') return ALWAYS;
  const signInOpen = session.secure || options.allowPlaintext;
  return [...ALWAYS, ...(!session.secure && options.tls ? ['STARTTLS'] : []), ...(signInOpen ? ['AUTH=PLAIN'] : ['LOGINDISABLED'])];
}
