import { envelopeOfFields } from './imap-envelope';
import { imapRun, type ImapValue } from './imap-value';
import type { MimePart } from './layout';

/** What stands for a message/rfc822 part whose message was not read (encoded, or nested too deep): an empty message. */
const UNREAD_MESSAGE: MimePart = { type: 'text/plain', header: 0, body: 0, end: 0, lines: 0, envelope: {} };

/**
 * A message's BODYSTRUCTURE (`extensible`) or BODY from its tree, shaped by RFC 3501's
 * grammar (`body`, 7.4.2): parts as nested lists, ready for serializeImapValue.
 */
export function bodyStructureOf(tree: MimePart, extensible: boolean): ImapValue {
  return structureOf(tree, extensible);
}

function structureOf(part: MimePart, extensible: boolean): ImapValue[] {
  const [type, subtype] = splitType(part.type);
  if (type === 'multipart' && part.parts) {
    const extension = extensible ? [params(part.params), disposition(part), language(part), part.location ?? null] : [];
    return [imapRun(part.parts.map((child) => structureOf(child, extensible))), subtype, ...extension];
  }
  const fields = [
    type,
    subtype,
    params(withDefaultCharset(part)),
    part.id ?? null,
    part.description ?? null,
    (part.encoding ?? '7bit').toUpperCase(),
    part.end - part.body,
  ];
  const extension = extensible ? [part.md5 ?? null, disposition(part), language(part), part.location ?? null] : [];
  if (part.type === 'message/rfc822') {
    const message = part.message ?? UNREAD_MESSAGE;
    return [...fields, envelopeOfFields(message.envelope ?? {}), structureOf(message, extensible), part.lines ?? 0, ...extension];
  }
  if (type === 'text') return [...fields, part.lines ?? 0, ...extension];
  return [...fields, ...extension];
}

function splitType(type: string): [string, string] {
  const slash = type.indexOf('/');
  return [type.slice(0, slash), type.slice(slash + 1)];
}

/** RFC 2045 5.2: text with no charset is US-ASCII, which IMAP servers state. */
function withDefaultCharset(part: MimePart): MimePart['params'] {
  if (!part.type.startsWith('text/') || part.params?.some(([name]) => name === 'charset')) return part.params;
  return [...(part.params ?? []), ['charset', 'us-ascii']];
}

function params(list: MimePart['params']): ImapValue {
  return list && list.length > 0 ? list.flat() : null;
}

function disposition(part: MimePart): ImapValue {
  return part.disposition ? [part.disposition.type, params(part.disposition.params)] : null;
}

function language(part: MimePart): ImapValue {
  return part.language ? [...part.language] : null;
}
