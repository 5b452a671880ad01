/** Characters that reorder the text around them: a name holding one can show as another's. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
/** A character that shows: not space, not a format character (zero-width ones), not a mark alone. */
const VISIBLE = /[^\p{White_Space}\p{Cf}\p{M}\p{Cc}]/u;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f]/;
export const MAX_MAILBOX_NAME = 100;

/**
 * What is wrong with a folder name a mail client (IMAP) asks for, by the rules the webmail's API keeps: something
 * visible, at most 100 characters, no space at either end, no control or bidirectional control characters.
 * Undefined when nothing is.
 */
export function mailboxNameProblem(name: string): string | undefined {
  if (name !== name.trim()) return 'must not begin or end with a space';
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_MAILBOX_NAME) return `must be at most ${MAX_MAILBOX_NAME} characters`;
  if (CONTROLS.test(name)) return 'must not contain control characters';
  if (BIDI_CONTROLS.test(name)) return 'must not contain bidirectional control characters';
  if (!VISIBLE.test(name)) return 'must contain a visible character';
  return undefined;
}
