import type { ImapMessage, MailSectionReader } from '@letterbox/mail';
import { bodyStructureOf, envelopeOf, envelopeOfFields, serializeImapValue, type ImapSection, type MimePart } from '@letterbox/mime';
import type { FetchSection } from '../protocol/fetch-attributes';
import { formatImapDateTime } from '../protocol/imap-date';
import type { FetchPlan, PlannedItem, SectionItem } from './fetch-plan';
import { flagList } from './message-flags';
import type { ResponseBuffer } from './response-buffer';

/** A message as FETCH answers it: its number now, its row, and its MIME tree when the items need one. */
export interface FetchedMessage {
  seq: number;
  message: ImapMessage;
  tree?: MimePart;
}

/** `* 3 FETCH (UID 7 FLAGS (\Seen) BODY[1] {120}` CRLF and the bytes `)`: sections stream from storage by range. */
export async function writeFetchResponse(out: ResponseBuffer, plan: FetchPlan, fetched: FetchedMessage, sections: MailSectionReader): Promise<void> {
  await out.add(`* ${fetched.seq} FETCH (`);
  for (const [index, item] of plan.items.entries()) {
    if (index > 0) await out.add(' ');
    if (item.kind === 'section') await writeSection(out, item, fetched, sections);
    else await out.add(await itemValue(item, fetched, sections));
  }
  await out.add(')\r\n');
}

async function writeSection(out: ResponseBuffer, item: SectionItem, { message, tree }: FetchedMessage, sections: MailSectionReader): Promise<void> {
  const partial = item.partial && { origin: item.partial.offset, count: item.partial.length };
  const { length, stream } = await sections.open({ id: message.mailId, storageKey: message.storageKey, tree: tree! }, imapSection(item.section), partial);
  await out.add(`${item.label} {${length}}\r\n`);
  await out.stream(stream);
}

async function itemValue(item: Exclude<PlannedItem, SectionItem>, { message, tree }: FetchedMessage, sections: MailSectionReader): Promise<Buffer | string> {
  switch (item.kind) {
    case 'FLAGS':
      return `FLAGS ${flagList(message.flags)}`;
    case 'UID':
      return `UID ${message.uid}`;
    case 'INTERNALDATE':
      return `INTERNALDATE ${formatImapDateTime(message.receivedAt)}`;
    case 'RFC822.SIZE':
      return `RFC822.SIZE ${message.size}`;
    case 'MODSEQ':
      return `MODSEQ (${message.modseq})`;
    case 'ENVELOPE': {
      const envelope = tree!.envelope
        ? envelopeOfFields(tree!.envelope)
        : envelopeOf(await sections.headerBlock({ id: message.mailId, storageKey: message.storageKey, tree: tree! }));
      return Buffer.concat([Buffer.from('ENVELOPE '), serializeImapValue(envelope)]);
    }
    case 'BODYSTRUCTURE':
      return Buffer.concat([Buffer.from('BODYSTRUCTURE '), serializeImapValue(bodyStructureOf(tree!, true))]);
    case 'BODY':
      return Buffer.concat([Buffer.from('BODY '), serializeImapValue(bodyStructureOf(tree!, false))]);
  }
}

/** The parser's section as libs/mime reads it (field names lower-case). */
function imapSection(section: FetchSection): ImapSection {
  return {
    part: section.part,
    ...(section.text ? { text: section.text } : {}),
    ...(section.fields ? { fields: section.fields.map((field) => field.toLowerCase()) } : {}),
  };
}
