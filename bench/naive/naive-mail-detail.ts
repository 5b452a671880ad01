import libmime from 'libmime';
import { simpleParser } from 'mailparser';
import type { Pool } from 'pg';
import { sanitizeMailHtml } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import { mapSummaryRow, SUMMARY_COLUMNS, type SummaryRow } from '@letterbox/mail';

export class NaiveHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const attachmentUrl = (mailId: number, partId: string) => `/v2/mails/${mailId}/attachments/${partId}`;

/**
 * The mail view as first written: mailparser's simpleParser over the whole EML, which
 * reads and buffers every attachment to show only their names and sizes. The JSON has
 * the read API's shape. `keepCidLinks` spares simpleParser inlining images as data:
 * URLs, work the read API does not do either.
 */
export async function naiveMailDetail(sql: Pool, blobs: BlobStore, userId: number, mailId: number) {
  const { rows } = await sql.query<SummaryRow & { storage_key: string; locked: boolean | null }>(
    `SELECT ${SUMMARY_COLUMNS}, m.storage_key, mb.locked FROM mails m LEFT JOIN mailboxes mb ON mb.id = m.mailbox_id
      WHERE m.id = $1 AND m.user_id = $2 AND m.deleted_at IS NULL`,
    [mailId, userId],
  );
  const row = rows[0];
  if (!row) throw new NaiveHttpError(404, `mail ${mailId} does not exist`);
  if (row.locked) throw new NaiveHttpError(423, `mailbox ${row.mailbox_id} is locked`);
  const parsed = await simpleParser(blobs.createReadStream(row.storage_key), { keepCidLinks: true });
  const contentUrls = new Map(parsed.attachments.filter((part) => part.cid).map((part) => [part.cid, attachmentUrl(mailId, part.partId ?? '')]));
  return {
    ...mapSummaryRow(row),
    headers: parsed.headerLines.map(({ line }) => {
      const colon = line.indexOf(':');
      return {
        name: line.slice(0, colon),
        value: libmime.decodeWords(
          line
            .slice(colon + 1)
            .replace(/\r?\n[ \t]+/g, ' ')
            .trim(),
        ),
      };
    }),
    text: parsed.text ?? '',
    html: parsed.html ? sanitizeMailHtml(parsed.html, (contentId) => contentUrls.get(contentId)) : null,
    truncated: false,
    attachments: parsed.attachments.map((part) => ({
      partId: part.partId,
      filename: part.filename ?? '',
      contentType: part.contentType,
      disposition: part.contentDisposition ?? 'attachment',
      contentId: part.cid ?? null,
      size: part.size,
      url: attachmentUrl(mailId, part.partId ?? ''),
    })),
  };
}
