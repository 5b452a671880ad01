import { createHash } from 'node:crypto';
import type { MailAttachment } from '../mail-attachment';
import { envelopeBanner, pdfLikeDocument, salesCsv } from '../sample-files';
import { SeededRandom } from '../seeded-random';
import type { ReferenceSize } from './reference-size';

export const MEDIUM_BANNER = { contentId: 'quarterly-banner@letterbox.test', width: 240, height: 160 };

const ARCHIVE_BYTES = 16 * 1024 * 1024;

/** The exact parts `referenceMail(size)` embeds, so a test can compare what a reader hands back. */
export function referenceAttachments(size: ReferenceSize): MailAttachment[] {
  switch (size) {
    case 'small':
      return [];
    case 'medium':
      return [
        {
          filename: 'quarterly-banner.png',
          contentType: 'image/png',
          content: envelopeBanner(MEDIUM_BANNER.width, MEDIUM_BANNER.height, [37, 99, 235], [147, 51, 234]),
          disposition: 'inline',
          contentId: MEDIUM_BANNER.contentId,
        },
        {
          filename: 'quarterly-report.pdf',
          contentType: 'application/pdf',
          content: pdfLikeDocument(new SeededRandom('reference/medium/quarterly-report.pdf'), 380_000),
          disposition: 'attachment',
        },
        {
          filename: '보고서 2026.csv',
          contentType: 'text/csv',
          content: salesCsv(new SeededRandom('reference/medium/보고서 2026.csv'), 320),
          disposition: 'attachment',
        },
      ];
    case 'large': {
      const archive = new SeededRandom('reference/large/archive.bin').bytes(ARCHIVE_BYTES);
      const digest = createHash('sha256').update(archive).digest('hex');
      return [
        { filename: 'archive.bin', contentType: 'application/octet-stream', content: archive, disposition: 'attachment' },
        {
          filename: 'archive.bin.sha256',
          contentType: 'text/plain',
          content: Buffer.from(`${digest}  archive.bin\n`),
          disposition: 'attachment',
        },
      ];
    }
  }
}
