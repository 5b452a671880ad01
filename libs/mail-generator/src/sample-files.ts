import { encodePng, type Rgb } from './png-image';
import type { SeededRandom } from './seeded-random';

const WHITE: Rgb = [255, 255, 255];

/** A gradient with a white envelope outline: a real picture, so a browser visibly renders an inline image. */
export function envelopeBanner(width: number, height: number, startColor: Rgb, endColor: Rgb): Buffer {
  const envelopeWidth = width * 0.4;
  const envelopeHeight = envelopeWidth * 0.62;
  const left = (width - envelopeWidth) / 2;
  const top = (height - envelopeHeight) / 2;
  const right = left + envelopeWidth;
  const bottom = top + envelopeHeight;
  const flapTip = { x: width / 2, y: top + envelopeHeight * 0.55 };
  const onOutline = (x: number, y: number): boolean => {
    const inside = x >= left && x <= right && y >= top && y <= bottom;
    const onBorder = Math.min(x - left, right - x, y - top, bottom - y) < 2;
    const onFlap =
      squaredDistanceToSegment(x, y, left, top, flapTip.x, flapTip.y) < 2.25 || squaredDistanceToSegment(x, y, right, top, flapTip.x, flapTip.y) < 2.25;
    return inside && (onBorder || onFlap);
  };
  return encodePng(width, height, (x, y) => (onOutline(x, y) ? WHITE : mix(startColor, endColor, (x / width + y / height) / 2)));
}

/**
 * Starts and ends like a PDF so type sniffers agree with the declared application/pdf, while
 * the body is seeded noise of the requested size; no viewer will open it, nothing needs to.
 */
export function pdfLikeDocument(random: SeededRandom, streamLength: number): Buffer {
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length ${streamLength} >>\nstream\n`, 'latin1'),
    random.bytes(streamLength),
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

const BRANCHES = ['서울 강남점', '부산 해운대점', '대구 동성로점', '인천 송도점', '광주 충장로점', '東京 渋谷店', '大阪 梅田店'];
const CLERKS = ['김민준', '이서연', '박지훈', '최유진', '정하은', '佐藤 健', '鈴木 花子'];
const PRODUCTS: ReadonlyArray<readonly [name: string, unitPrice: number]> = [
  ['노트북 14"', 1_290_000],
  ['모니터 27"', 389_000],
  ['무선 키보드', 59_000],
  ['ワイヤレスマウス', 32_000],
  ['USB-C 허브', 45_000],
  ['웹캠 "HD"', 78_000],
];

/**
 * Sales rows the way Korean spreadsheet software exports them: UTF-8 with a byte order mark
 * (which a byte-for-byte comparison must keep) and CRLF rows, quoted where a field needs it.
 */
export function salesCsv(random: SeededRandom, rowCount: number): Buffer {
  const rows = ['날짜,지점,담당자,품목,수량,단가(원),금액(원)'];
  const firstDay = Date.UTC(2026, 0, 1);
  for (let i = 0; i < rowCount; i++) {
    const day = new Date(firstDay + Math.floor((i * 90) / rowCount) * 86_400_000).toISOString().slice(0, 10);
    const [product, unitPrice] = random.pick(PRODUCTS);
    const quantity = random.between(1, 40);
    const fields = [day, random.pick(BRANCHES), random.pick(CLERKS), product, quantity, unitPrice, quantity * unitPrice];
    rows.push(fields.map((field) => csvField(String(field))).join(','));
  }
  return Buffer.from(`\ufeff${rows.join('\r\n')}\r\n`, 'utf8');
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  const channel = (i: number) => Math.round(from[i] + (to[i] - from[i]) * amount);
  return [channel(0), channel(1), channel(2)];
}

// squared, because Math.hypot may round differently between engines and the pixels must not
function squaredDistanceToSegment(x: number, y: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const along = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  const offsetX = x - (x1 + along * dx);
  const offsetY = y - (y1 + along * dy);
  return offsetX * offsetX + offsetY * offsetY;
}
