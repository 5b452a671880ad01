import type { MimePart } from './layout';
import { MAX_HEADER_BLOCK } from './message-headers';

/** What of a part a FETCH section names (RFC 3501 6.4.5); absent: the part's body, or the whole message. */
export type SectionText = 'HEADER' | 'HEADER.FIELDS' | 'HEADER.FIELDS.NOT' | 'TEXT' | 'MIME';

/** A FETCH `BODY[section]`: `1.2.HEADER.FIELDS (FROM TO)` is part [1, 2], text HEADER.FIELDS, fields ['from', 'to']. */
export interface ImapSection {
  part: number[];
  text?: SectionText;
  /** Lower-case field names, for HEADER.FIELDS and HEADER.FIELDS.NOT. */
  fields?: string[];
}

export class ImapSectionError extends Error {
  constructor(readonly section: string) {
    super(`"${section}" is not an IMAP section`);
  }
}

const TEXTS: SectionText[] = ['HEADER.FIELDS.NOT', 'HEADER.FIELDS', 'HEADER', 'TEXT', 'MIME'];

/** Parses what stands between the brackets of `BODY[...]`; throws ImapSectionError when it follows no rule of the grammar. */
export function parseImapSection(spec: string): ImapSection {
  const listStart = spec.indexOf('(');
  const head = (listStart === -1 ? spec : spec.slice(0, listStart)).trim().toUpperCase();
  const numbers = /^(\d+(?:\.\d+)*)?(?:\.|$)/.exec(head)?.[1];
  const part = numbers ? numbers.split('.').map(Number) : [];
  const rest = head.slice(numbers ? numbers.length + 1 : 0);
  const text = TEXTS.find((name) => name === rest);
  const fields = listStart === -1 ? undefined : headerList(spec.slice(listStart));
  const wantsFields = text === 'HEADER.FIELDS' || text === 'HEADER.FIELDS.NOT';
  const valid =
    part.every((number) => number > 0 && Number.isSafeInteger(number)) &&
    (rest === '' ? head === (numbers ?? '') && fields === undefined : text !== undefined) &&
    (text !== 'MIME' || part.length > 0) &&
    wantsFields === (fields !== undefined && fields.length > 0);
  if (!valid) throw new ImapSectionError(spec);
  return { part, ...(text ? { text } : {}), ...(fields ? { fields } : {}) };
}

function headerList(list: string): string[] | undefined {
  const inner = /^\(([^()]*)\)\s*$/.exec(list)?.[1];
  if (inner === undefined) return undefined;
  return inner
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => name.replace(/^"(.*)"$/, '$1').toLowerCase());
}

/** `end` is exclusive. */
export interface ByteSpan {
  start: number;
  end: number;
}

/** A FETCH partial, `<origin.count>`: `count` bytes from `origin` of the section. */
export interface ImapPartial {
  origin: number;
  count: number;
}

/** The offsets, within a section of `length` bytes, of what a partial asks for: empty when it starts past the end. */
export function partialSpan(length: number, partial?: ImapPartial): ByteSpan {
  if (!partial) return { start: 0, end: length };
  const start = Math.min(partial.origin, length);
  return { start, end: Math.min(length, start + partial.count) };
}

/** A section's bytes: a span of the EML, or the fields of a header block to pick (filterHeaderFields). */
export type SectionBytes = { span: ByteSpan } | { headerBlock: ByteSpan; fields: string[]; exclude: boolean };

const EMPTY: SectionBytes = { span: { start: 0, end: 0 } };

/**
 * Where a section lies in the EML whose tree this is. A part that is not there, or a
 * HEADER or TEXT of a part that holds no message, is empty, as RFC 3501 has it.
 */
export function locateSection(tree: MimePart, section: ImapSection): SectionBytes {
  const part = section.part.length === 0 ? tree : partAt(tree, section.part);
  if (!part) return EMPTY;
  if (section.text === 'MIME') return { span: { start: part.header, end: part.body } };
  if (section.text === undefined) return { span: section.part.length === 0 ? { start: 0, end: tree.end } : { start: part.body, end: part.end } };
  const message = section.part.length === 0 ? tree : part.message;
  if (!message) return EMPTY;
  if (section.text === 'TEXT') return { span: { start: message.body, end: message.end } };
  const header = { start: message.header, end: message.body };
  if (section.text === 'HEADER') return { span: header };
  const headerBlock = { start: header.start, end: Math.min(header.end, header.start + MAX_HEADER_BLOCK) };
  return { headerBlock, fields: section.fields ?? [], exclude: section.text === 'HEADER.FIELDS.NOT' };
}

/** The part numbered `path` (IMAP part numbers), if the tree holds it. */
export function partAt(tree: MimePart, path: number[]): MimePart | undefined {
  let part: MimePart | undefined;
  for (const number of path) {
    const within = part === undefined ? numberedParts(tree) : part.message ? numberedParts(part.message) : (part.parts ?? []);
    part = within[number - 1];
    if (!part) return undefined;
  }
  return part;
}

/** The parts a message's numbers count: a multipart's parts, or the one body of any other. */
function numberedParts(message: MimePart): MimePart[] {
  return message.parts ?? [message];
}
