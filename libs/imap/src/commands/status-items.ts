import type { ImapMailboxState } from '@letterbox/mail';
import type { ImapMailbox } from '../mailboxes/imap-mailboxes';
import { atomOf, ImapCommandError, type Token } from '../protocol/tokens';

/** The STATUS items RFC 3501, 7162, 8438 and 9051 define; those this server can answer so far are STATUS_VALUES'. */
const KNOWN = new Set(['MESSAGES', 'UNSEEN', 'RECENT', 'UIDNEXT', 'UIDVALIDITY', 'HIGHESTMODSEQ', 'SIZE', 'DELETED', 'APPENDLIMIT', 'MAILBOXID']);

const STATUS_VALUES: Record<string, (mailbox: ImapMailbox) => number> = {
  MESSAGES: (mailbox) => mailbox.messages,
  UNSEEN: (mailbox) => mailbox.unseen,
};

/** The items read from the mailbox's IMAP numbers, one more query, made only when one of them is asked. */
const STATE_VALUES: Record<string, (state: ImapMailboxState) => number> = {
  UIDNEXT: (state) => state.uidNext,
  UIDVALIDITY: (state) => state.uidValidity,
  HIGHESTMODSEQ: (state) => state.highestModseq,
};

/** The items of a STATUS (or LIST's RETURN STATUS) list, upper-case; unknown ones are refused. */
export function statusItems(tokens: Token[]): string[] {
  if (tokens.length === 0) throw new ImapCommandError('expected at least one STATUS item');
  return tokens.map((token) => {
    const item = atomOf(token, 'a STATUS item').toUpperCase();
    if (!KNOWN.has(item)) throw new ImapCommandError(`unknown STATUS item ${item}`);
    return item;
  });
}

/** `MESSAGES 3 UIDNEXT 7`: the asked items this server can answer, the others left out rather than guessed. */
export async function statusValues(
  mailbox: ImapMailbox,
  items: string[],
  stateOf: (mailboxId: number) => Promise<ImapMailboxState | undefined>,
): Promise<string> {
  const state = items.some((item) => item in STATE_VALUES) ? await stateOf(mailbox.id) : undefined;
  return items
    .flatMap((item) => {
      if (item in STATUS_VALUES) return [`${item} ${STATUS_VALUES[item](mailbox)}`];
      return state && item in STATE_VALUES ? [`${item} ${STATE_VALUES[item](state)}`] : [];
    })
    .join(' ');
}
