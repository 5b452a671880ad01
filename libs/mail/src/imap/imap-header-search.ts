import type { Database } from '@letterbox/db';
import { MAX_HEADER_BLOCK, messageHeadersOf } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import { mapConcurrently } from '../store/map-concurrently';
import type { ImapHeaderCondition } from './imap-search-sql';

/** Mails whose header blocks are read per page, and at once: memory and storage reads stay bounded whatever the mailbox's size. */
const PAGE = 1000;
const HEADER_READS = 8;

interface Candidate {
  uid: number;
  modseq: number;
  storageKey: string;
  headerEnd: number;
}

/**
 * HEADER on a field the mail's row does not keep (RFC 3501 6.4.4): the mails the rest of the search matched, a page at
 * a time in UID order, each with its top-level header block read from storage (by its start when longer than
 * MAX_HEADER_BLOCK) and kept when every condition's field holds its text, decoded, in any case. Work is linear in
 * the matched mails; a search that names an indexed field first reads fewer of them.
 */
export async function filterByHeaders(
  db: Database,
  blobs: BlobStore,
  statement: { text: string; values: unknown[] },
  conditions: readonly ImapHeaderCondition[],
): Promise<Array<[uid: number, modseq: number]>> {
  const kept: Array<[number, number]> = [];
  for (let afterUid = 0; ;) {
    const { rows } = await db.sql.query<[string, string, string, number]>({
      text: statement.text,
      values: [...statement.values, afterUid, PAGE],
      rowMode: 'array',
    });
    const page: Candidate[] = rows.map(([uid, modseq, storageKey, headerEnd]) => ({ uid: Number(uid), modseq: Number(modseq), storageKey, headerEnd }));
    const matches = await mapConcurrently(page, HEADER_READS, async (candidate) => headersMatch(await headerBlock(blobs, candidate), conditions));
    page.forEach((candidate, index) => matches[index] && kept.push([candidate.uid, candidate.modseq]));
    if (page.length < PAGE) return kept;
    afterUid = page[page.length - 1].uid;
  }
}

async function headerBlock(blobs: BlobStore, { storageKey, headerEnd }: Candidate): Promise<Buffer> {
  const [block] = await blobs.readRanges(storageKey, [{ start: 0, end: Math.min(headerEnd, MAX_HEADER_BLOCK) }]);
  return block;
}

/** Whether each condition's field is there holding its text (an empty text: the field is there at all). */
export function headersMatch(block: Buffer, conditions: readonly ImapHeaderCondition[]): boolean {
  const headers = messageHeadersOf(block);
  return conditions.every(({ field, value }) => {
    const wanted = value.toLowerCase();
    return headers.header(field).some((text) => text.toLowerCase().includes(wanted));
  });
}
