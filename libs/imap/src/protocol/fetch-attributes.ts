import { parseMessageSet, type MessageSet } from './sequence-set';
import { atomOf, ImapCommandError, numberOf, type Token } from './tokens';

/** Which part of a message a BODY[...] or BINARY[...] names (RFC 3501 section, RFC 3516 section-binary). */
export interface FetchSection {
  /** MIME part numbers, `[1, 2]` for `1.2`; empty for the whole message. */
  part: number[];
  /** What of the part; none for all of it. */
  text?: 'HEADER' | 'HEADER.FIELDS' | 'HEADER.FIELDS.NOT' | 'TEXT' | 'MIME';
  /** Upper-case, for HEADER.FIELDS and HEADER.FIELDS.NOT. */
  fields?: string[];
}

/** One item of a FETCH: what the later wave answers for each message. */
export type FetchItem =
  | { kind: 'FLAGS' | 'UID' | 'ENVELOPE' | 'INTERNALDATE' | 'RFC822.SIZE' | 'MODSEQ' | 'BODYSTRUCTURE' | 'RFC822' | 'RFC822.HEADER' | 'RFC822.TEXT' }
  /** BODY alone: the body structure without extension data. */
  | { kind: 'BODY' }
  | { kind: 'BODY[]'; section: FetchSection; peek: boolean; partial?: { offset: number; length: number } }
  | { kind: 'BINARY[]'; section: FetchSection; peek: boolean; partial?: { offset: number; length: number } }
  | { kind: 'BINARY.SIZE'; section: FetchSection };

export interface FetchCommand {
  set: MessageSet;
  items: FetchItem[];
  /** CONDSTORE: only messages whose mod-sequence is above it. */
  changedSince?: number;
  /** QRESYNC's UID FETCH ... (CHANGEDSINCE n VANISHED). */
  vanished: boolean;
}

const SIMPLE = new Set([
  'FLAGS',
  'UID',
  'ENVELOPE',
  'INTERNALDATE',
  'RFC822.SIZE',
  'MODSEQ',
  'BODYSTRUCTURE',
  'RFC822',
  'RFC822.HEADER',
  'RFC822.TEXT',
  'BODY',
]);
const MACROS: Record<string, string[]> = {
  ALL: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE', 'ENVELOPE'],
  FAST: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE'],
  FULL: ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE', 'ENVELOPE', 'BODY'],
};
const SECTIONED = /^(BODY|BODY\.PEEK|BINARY|BINARY\.PEEK|BINARY\.SIZE)\[([^\]]*)\](?:<(\d{1,10})\.(\d{1,10})>)?$/i;
const MAX_NUMBER = 0xffffffff;

/** `FETCH <set> <items> [(modifiers)]`'s arguments. */
export function parseFetchCommand(args: Token[]): FetchCommand {
  const [setToken, itemsToken, modifiers, ...rest] = args;
  if (rest.length > 0) throw new ImapCommandError('unexpected arguments after the FETCH modifiers');
  const set = parseMessageSet(atomOf(setToken, 'a sequence set'));
  if (!itemsToken) throw new ImapCommandError('expected FETCH items');
  const items = itemsToken.type === 'list' ? itemsToken.items.map((item) => atomOf(item, 'a FETCH item')) : [atomOf(itemsToken, 'FETCH items')];
  const macro = itemsToken.type === 'atom' ? MACROS[itemsToken.value.toUpperCase()] : undefined;
  if (items.length === 0) throw new ImapCommandError('expected at least one FETCH item');
  return { set, items: (macro ?? items).map(parseFetchItem), ...parseModifiers(modifiers) };
}

export function parseFetchItem(text: string): FetchItem {
  const upper = text.toUpperCase();
  if (SIMPLE.has(upper)) return { kind: upper } as FetchItem;
  const match = SECTIONED.exec(text);
  if (!match) throw new ImapCommandError(`unknown FETCH item ${text}`);
  const name = match[1].toUpperCase();
  const binary = name.startsWith('BINARY');
  const section = parseSection(match[2], binary);
  if (name === 'BINARY.SIZE') {
    if (match[3] !== undefined) throw new ImapCommandError('BINARY.SIZE takes no partial range');
    return { kind: 'BINARY.SIZE', section };
  }
  const partial = match[3] === undefined ? undefined : { offset: Number(match[3]), length: Number(match[4]) };
  if (partial && (partial.offset > MAX_NUMBER || partial.length > MAX_NUMBER || partial.length === 0))
    throw new ImapCommandError(`malformed partial range in ${text}`);
  return { kind: binary ? 'BINARY[]' : 'BODY[]', section, peek: name.endsWith('.PEEK'), ...(partial ? { partial } : {}) };
}

const PART = /^[1-9]\d{0,8}(?:\.[1-9]\d{0,8})*$/;
const FIELDS = /^(HEADER\.FIELDS(?:\.NOT)?) \(([^()]*)\)$/i;
const FIELD_NAME = /^[!-9;-~]+$/;

function parseSection(spec: string, binary: boolean): FetchSection {
  if (spec === '') return { part: [] };
  const letter = spec.search(/[A-Za-z]/);
  const partNumbers = letter === -1 ? spec : spec.slice(0, Math.max(0, letter - 1));
  const text = letter === -1 ? undefined : spec.slice(letter);
  if ((partNumbers !== '' && !PART.test(partNumbers)) || (letter > 0 && spec[letter - 1] !== '.')) throw new ImapCommandError(`malformed section [${spec}]`);
  const part = partNumbers === '' ? [] : partNumbers.split('.').map(Number);
  if (text === undefined) return { part };
  if (binary) throw new ImapCommandError(`BINARY takes part numbers only, not [${spec}]`);
  const upper = text.toUpperCase();
  if (upper === 'HEADER' || upper === 'TEXT') return { part, text: upper };
  if (upper === 'MIME' && part.length > 0) return { part, text: 'MIME' };
  const fields = FIELDS.exec(text);
  if (!fields) throw new ImapCommandError(`malformed section [${spec}]`);
  const names = fields[2].split(' ').filter((name) => name !== '');
  if (names.length === 0 || !names.every((name) => FIELD_NAME.test(name))) throw new ImapCommandError(`malformed header field list in [${spec}]`);
  return { part, text: fields[1].toUpperCase() as 'HEADER.FIELDS' | 'HEADER.FIELDS.NOT', fields: names.map((name) => name.toUpperCase()) };
}

function parseModifiers(token: Token | undefined): { changedSince?: number; vanished: boolean } {
  if (!token) return { vanished: false };
  if (token.type !== 'list') throw new ImapCommandError('expected FETCH modifiers in parentheses');
  const modifiers: { changedSince?: number; vanished: boolean } = { vanished: false };
  for (let index = 0; index < token.items.length; index++) {
    const name = atomOf(token.items[index], 'a FETCH modifier').toUpperCase();
    if (name === 'CHANGEDSINCE') modifiers.changedSince = numberOf(token.items[++index], 'a mod-sequence', Number.MAX_SAFE_INTEGER);
    else if (name === 'VANISHED') modifiers.vanished = true;
    else throw new ImapCommandError(`unknown FETCH modifier ${name}`);
  }
  if (modifiers.vanished && modifiers.changedSince === undefined) throw new ImapCommandError('VANISHED needs CHANGEDSINCE');
  return modifiers;
}
