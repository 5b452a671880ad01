import type { Readable } from 'node:stream';
import { fromLineQuotes, linePieces } from './line-pieces';

/** What an mbox entry says of a mail besides its content. */
export interface MboxEnvelope {
  sender: string;
  date: Date;
  folder: string;
  flags: string[];
}

export const FOLDER_HEADER = 'X-Letterbox-Folder';
export const FLAGS_HEADER = 'X-Letterbox-Flags';

const QUOTE = Buffer.from('>');

/**
 * One mail as an mbox entry (RFC 4155, mboxrd): the `From ` line, Letterbox's folder and
 * flags as the first two header lines (with the message's own line ending), the message with
 * every line of the form `>*From ` quoted with one more `>`, then the empty line that ends
 * an entry. A message that does not end with a line break gets one (as every mbox does):
 * the only change a round trip makes.
 */
export async function* mboxEntry(envelope: MboxEnvelope, content: Readable): AsyncGenerator<Buffer> {
  yield Buffer.from(`From ${envelope.sender} ${asctime(envelope.date)}\n`);
  const headers = (eol: string) =>
    Buffer.from(`${FOLDER_HEADER}: ${envelope.folder}${eol}${FLAGS_HEADER}:${envelope.flags.map((flag) => ` ${flag}`).join('')}${eol}`);
  let first = true;
  let endsLine = true;
  for await (const piece of linePieces(content)) {
    if (first) yield headers(piece.endsLine && piece.bytes.at(-2) === 0x0d ? '\r\n' : '\n');
    first = false;
    yield piece.startsLine && fromLineQuotes(piece.bytes) >= 0 ? Buffer.concat([QUOTE, piece.bytes]) : piece.bytes;
    endsLine = piece.endsLine;
  }
  if (first) yield headers('\n');
  yield Buffer.from(endsLine ? '\n' : '\n\n');
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The `From ` line's date, as asctime writes it, in UTC: `Thu Nov 26 16:37:41 2026`. */
function asctime(date: Date): string {
  const time = date.toISOString().slice(11, 19);
  return `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2, ' ')} ${time} ${date.getUTCFullYear()}`;
}

/** The date of a `From ` line as asctime wrote it (UTC), or undefined. */
export function parseAsctime(text: string): Date | undefined {
  const match = /([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})\s*$/.exec(text);
  const month = match ? MONTHS.indexOf(match[1]) : -1;
  if (!match || month < 0) return undefined;
  return new Date(Date.UTC(Number(match[6]), month, Number(match[2]), Number(match[3]), Number(match[4]), Number(match[5])));
}
