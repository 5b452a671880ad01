import type { ImapFlagStore, ImapStoredFlags } from '@letterbox/mail';
import { parseMessageSet, type MessageSet } from './sequence-set';
import { atomOf, ImapCommandError, numberOf, type Token } from './tokens';

export interface StoreCommand {
  set: MessageSet;
  store: ImapFlagStore;
  /** .SILENT: the client needs no FETCH of the flags it set. */
  silent: boolean;
}

const SYSTEM: Record<string, keyof Omit<ImapStoredFlags, 'keywords'> | undefined> = {
  '\\SEEN': 'seen',
  '\\FLAGGED': 'flagged',
  '\\ANSWERED': 'answered',
  '\\DELETED': 'deleted',
  $FORWARDED: 'forwarded',
  // \Draft is where the mail is (Drafts) and \Recent is the server's: a client cannot set either, and they are let be.
  '\\DRAFT': undefined,
  '\\RECENT': undefined,
};
const ITEM = /^([+-]?)FLAGS(\.SILENT)?$/;
/** RFC 3501's atom-specials, which a keyword may not contain (the parser's atoms have no control characters already). */
const KEYWORD = /^[^\s(){%*"\\\]]{1,100}$/;

/** `STORE set [(UNCHANGEDSINCE n)] [+|-]FLAGS[.SILENT] (flags)` (RFC 3501 6.4.6, RFC 7162 3.1.3). */
export function parseStoreCommand(args: Token[]): StoreCommand {
  const set = parseMessageSet(atomOf(args[0], 'a sequence set'));
  let at = 1;
  let unchangedSince: number | undefined;
  if (args[at]?.type === 'list') {
    const [name, value, ...rest] = (args[at] as { items: Token[] }).items;
    if (atomOf(name, 'a STORE modifier').toUpperCase() !== 'UNCHANGEDSINCE' || rest.length > 0)
      throw new ImapCommandError('the only STORE modifier is UNCHANGEDSINCE');
    unchangedSince = numberOf(value, 'a mod-sequence', Number.MAX_SAFE_INTEGER);
    at++;
  }
  const item = ITEM.exec(atomOf(args[at], 'FLAGS, +FLAGS or -FLAGS').toUpperCase());
  if (!item) throw new ImapCommandError('expected FLAGS, +FLAGS or -FLAGS');
  const values = args.slice(at + 1);
  const flagTokens = values.length === 1 && values[0].type === 'list' ? values[0].items : values;
  return {
    set,
    store: {
      mode: item[1] === '+' ? 'add' : item[1] === '-' ? 'remove' : 'replace',
      flags: storedFlags(flagTokens),
      ...(unchangedSince === undefined ? {} : { unchangedSince }),
    },
    silent: item[2] !== undefined,
  };
}

/** A STORE or APPEND flag list: the system flags a client may set, and keywords. */
export function storedFlags(tokens: Token[]): ImapStoredFlags {
  const flags: ImapStoredFlags = { seen: false, flagged: false, answered: false, forwarded: false, deleted: false, keywords: [] };
  for (const token of tokens) {
    const flag = atomOf(token, 'a flag');
    const upper = flag.toUpperCase();
    if (upper in SYSTEM) {
      const field = SYSTEM[upper];
      if (field) flags[field] = true;
    } else if (flag.startsWith('\\')) throw new ImapCommandError(`${flag} is not a flag a client may set`);
    else if (!KEYWORD.test(flag)) throw new ImapCommandError(`${flag} is not a keyword`);
    else flags.keywords.push(flag);
  }
  return flags;
}
