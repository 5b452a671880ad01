import type { ImapMessage, MailSectionReader } from '@letterbox/mail';
import { bodyStructureOf, envelopeOfFields, serializeImapValue, type ImapSection, type MimePart } from '@letterbox/mime';
import type { FetchSection } from '../protocol/fetch-attributes';
import { formatImapDateTime } from '../protocol/imap-date';
import type { StreamedResponsePart } from '../protocol/response-writer';
import { binaryContentOf } from './binary-content';
import type { BinaryItem, FetchPlan, PlannedItem, SectionItem } from './fetch-plan';
import { flagList } from './message-flags';
import type { ResponseBuffer } from './response-buffer';

/** A message as FETCH answers it: its number now, its row, and its MIME tree when the items need one (or its row lacks the envelope). */
export interface FetchedMessage {
  seq: number;
  message: ImapMessage;
  tree?: MimePart;
}

/** `* 3 FETCH (UID 7 FLAGS (\Seen) BODY[1] {120}` CRLF and the bytes `)`: sections stream from storage by range. */
export async function writeFetchResponse(out: ResponseBuffer, plan: FetchPlan, fetched: FetchedMessage, sections: MailSectionReader): Promise<void> {
  const parts: StreamedResponsePart[] = [`* ${fetched.seq} FETCH (`];
  try {
    for (const [index, item] of plan.items.entries()) {
      if (index > 0) parts.push(' ');
      parts.push(...(await itemParts(item, fetched, sections)));
    }
  } catch (error) {
    // An item that cannot be answered (storage failing while a BINARY part is counted) leaves the sections opened before it unread: they are let go.
    for (const part of parts) if (typeof part !== 'string' && 'literalStream' in part) part.literalStream.stream.destroy();
    throw error;
  }
  parts.push(')');
  await out.add(parts);
}

async function itemParts(item: PlannedItem, { message, tree }: FetchedMessage, sections: MailSectionReader): Promise<StreamedResponsePart[]> {
  const mail = () => ({ id: message.mailId, storageKey: message.storageKey, tree: tree! });
  switch (item.kind) {
    case 'FLAGS':
      return [`FLAGS ${flagList(message.flags)}`];
    case 'UID':
      return [`UID ${message.uid}`];
    case 'INTERNALDATE':
      return [`INTERNALDATE ${formatImapDateTime(message.receivedAt)}`];
    case 'RFC822.SIZE':
      return [`RFC822.SIZE ${message.size}`];
    case 'MODSEQ':
      return [`MODSEQ (${message.modseq})`];
    case 'ENVELOPE':
      return ['ENVELOPE ', { raw: serializeImapValue(message.envelope ? envelopeOfFields(message.envelope) : await sections.envelope(mail())) }];
    case 'BODYSTRUCTURE':
      return ['BODYSTRUCTURE ', { raw: serializeImapValue(bodyStructureOf(tree!, true)) }];
    case 'BODY':
      return ['BODY ', { raw: serializeImapValue(bodyStructureOf(tree!, false)) }];
    case 'section':
      return [`${item.label} `, { literalStream: await sections.open(mail(), imapSection(item.section), partialOf(item)) }];
    case 'binary': {
      const decoded = await sections.openDecoded(mail(), binaryContentOf(tree!, item.part), partialOf(item));
      return [`${item.label} `, { literalStream: { length: decoded.length, stream: decoded.stream, literal8: decoded.containsNul } }];
    }
    case 'binary-size':
      return [`${item.label} ${await sections.decodedLength(mail(), binaryContentOf(tree!, item.part))}`];
  }
}

const partialOf = (item: SectionItem | BinaryItem) => item.partial && { origin: item.partial.offset, count: item.partial.length };

/** The parser's section as libs/mime reads it (field names lower-case). */
function imapSection(section: FetchSection): ImapSection {
  return {
    part: section.part,
    ...(section.text ? { text: section.text } : {}),
    ...(section.fields ? { fields: section.fields.map((field) => field.toLowerCase()) } : {}),
  };
}
