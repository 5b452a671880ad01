import type { Database } from '@letterbox/db';
import { MAX_HEADER_BLOCK, messageHeadersOf } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import { mapConcurrently } from '../store/map-concurrently';
import { imapMatchesSql, imapSearchSql, type ImapHeaderCondition, type ImapSearchCriterion } from './imap-search-sql';

/** Mails whose header blocks are read per page, and at once: memory and storage reads stay bounded whatever the mailbox's size. */
const PAGE = 1000;
const HEADER_READS = 8;

interface Candidate {
  uid: number;
  storageKey: string;
  headerEnd: number;
}

/**
 * The criterion with its HEADER conditions on fields the mail's row does not keep (RFC 3501 6.4.4) met: the mails the
 * rest of it matches are read a page at a time in UID order, each with its top-level header block read from storage
 * (by its start when longer than MAX_HEADER_BLOCK), and those whose fields hold the texts, decoded, in any case, become
 * the UID ranges SEARCH, SORT and THREAD then select. Work is linear in the mails the rest matches; a search that
 * names an indexed field as well reads fewer of them.
 */
export async function withHeadersRead(
  db: Database,
  blobs: BlobStore,
  mailboxId: number,
  userId: number,
  criterion: ImapSearchCriterion,
): Promise<ImapSearchCriterion> {
  const { rest, headers } = headerConditionsOf(criterion);
  if (headers.length === 0) return criterion;
  const { condition, values } = imapSearchSql(rest, 3);
  const text = `SELECT u.uid, m.storage_key, (m.layout->>'headerEnd')::int ${imapMatchesSql(condition, true)}
                  AND u.uid > $${values.length + 3} ORDER BY u.uid LIMIT $${values.length + 4}`;
  const ranges: Array<[number, number]> = [];
  for (let afterUid = 0; ;) {
    const { rows } = await db.sql.query<[string, string, number]>({ text, values: [mailboxId, userId, ...values, afterUid, PAGE], rowMode: 'array' });
    const page: Candidate[] = rows.map(([uid, storageKey, headerEnd]) => ({ uid: Number(uid), storageKey, headerEnd }));
    const matches = await mapConcurrently(page, HEADER_READS, async (candidate) => headersMatch(await headerBlock(blobs, candidate), headers));
    page.forEach(({ uid }, index) => {
      if (!matches[index]) return;
      const last = ranges[ranges.length - 1];
      if (last && last[1] === uid - 1) last[1] = uid;
      else ranges.push([uid, uid]);
    });
    if (page.length < PAGE) return { kind: 'uids', ranges };
    afterUid = page[page.length - 1].uid;
  }
}

/** The HEADER conditions every match must meet (alone, or in an AND at the top), apart from the rest of the criterion. */
function headerConditionsOf(criterion: ImapSearchCriterion): { rest: ImapSearchCriterion; headers: ImapHeaderCondition[] } {
  if (criterion.kind === 'header') return { rest: { kind: 'all' }, headers: [{ field: criterion.field, value: criterion.value }] };
  if (criterion.kind !== 'and') return { rest: criterion, headers: [] };
  const parts = criterion.criteria.map(headerConditionsOf);
  return { rest: { kind: 'and', criteria: parts.map((part) => part.rest) }, headers: parts.flatMap((part) => part.headers) };
}

async function headerBlock(blobs: BlobStore, { storageKey, headerEnd }: Candidate): Promise<Buffer> {
  const [block] = await blobs.readRanges(storageKey, [{ start: 0, end: Math.min(headerEnd, MAX_HEADER_BLOCK) }]);
  return block;
}

/** Whether each condition's field is there holding its text (an empty text: the field is there at all). */
function headersMatch(block: Buffer, conditions: readonly ImapHeaderCondition[]): boolean {
  const headers = messageHeadersOf(block);
  return conditions.every(({ field, value }) => {
    const wanted = value.toLowerCase();
    return headers.header(field).some((text) => text.toLowerCase().includes(wanted));
  });
}
