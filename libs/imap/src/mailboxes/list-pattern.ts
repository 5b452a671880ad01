import { ImapCommandError } from '../protocol/tokens';
import { HIERARCHY_DELIMITER } from './imap-mailboxes';

/** Longer patterns are refused: matching costs the pattern's length times the name's. */
const MAX_PATTERN = 1024;

/**
 * Whether a mailbox name matches LIST's reference and pattern (RFC 3501 §6.3.8): `*` matches anything, `%`
 * anything but the hierarchy delimiter; INBOX in any case. Matched with a table, the pattern's length times the
 * name's at most, never by backtracking.
 */
export function listMatcher(reference: string, pattern: string): (name: string) => boolean {
  let full = reference + pattern;
  if (full.length > MAX_PATTERN) throw new ImapCommandError(`a LIST pattern may be at most ${MAX_PATTERN} characters`);
  if (full.toUpperCase().startsWith('INBOX')) full = `INBOX${full.slice(5)}`;
  const chars = [...full];
  return (name) => matches(chars, [...name]);
}

function matches(pattern: string[], name: string[]): boolean {
  // reachable[j]: the pattern read so far can match the first j characters of the name.
  let reachable = new Array<boolean>(name.length + 1).fill(false);
  reachable[0] = true;
  for (const char of pattern) {
    const next = new Array<boolean>(name.length + 1).fill(false);
    if (char === '*' || char === '%') {
      let open = false;
      for (let j = 0; j <= name.length; j++) {
        if (reachable[j]) open = true;
        else if (char === '%' && j > 0 && name[j - 1] === HIERARCHY_DELIMITER) open = false;
        next[j] = open;
      }
    } else {
      for (let j = 1; j <= name.length; j++) next[j] = reachable[j - 1] && name[j - 1] === char;
    }
    reachable = next;
  }
  return reachable[name.length];
}
