import type { MailAttachment } from '../mail-attachment';
import { envelopeBanner, pdfLikeDocument, salesCsv } from '../sample-files';
import type { SeededRandom } from '../seeded-random';

/** Each stays under 50 KB, so bulk data stays light; the large cases belong to referenceMail. */
export const SMALL_ATTACHMENTS: ReadonlyArray<(random: SeededRandom) => MailAttachment> = [
  (random) => ({
    filename: random.pick(['invoice.pdf', '견적서.pdf', '請求書.pdf', 'boarding pass.pdf']),
    contentType: 'application/pdf',
    content: pdfLikeDocument(random, random.between(2_000, 40_000)),
    disposition: 'attachment',
  }),
  (random) => ({
    filename: random.pick(['sales.csv', '판매 내역.csv', '売上データ.csv']),
    contentType: 'text/csv',
    content: salesCsv(random, random.between(5, 200)),
    disposition: 'attachment',
  }),
  (random) => ({
    filename: random.pick(['photo.png', '스크린샷.png', 'スクリーンショット.png']),
    contentType: 'image/png',
    content: envelopeBanner(
      random.between(32, 96),
      random.between(32, 96),
      [random.between(0, 255), random.between(0, 255), random.between(0, 255)],
      [random.between(0, 255), random.between(0, 255), random.between(0, 255)],
    ),
    disposition: 'attachment',
  }),
  (random) => ({
    filename: random.pick(['notes.txt', '메모.txt', 'メモ.txt']),
    contentType: 'text/plain',
    content: Buffer.from(
      random.pick([
        'Remember: backups run at 02:00 UTC.\nCall the landlord about the heating.\n',
        '회의 전에 자료 출력하기\n점심 예약 확인\n',
        '牛乳、卵、パンを買う\n',
      ]),
    ),
    disposition: 'attachment',
  }),
];
