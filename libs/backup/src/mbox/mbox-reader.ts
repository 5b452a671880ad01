import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fromLineQuotes, linePieces, PIECE_BYTES, type LinePiece } from './line-pieces';
import { FLAGS_HEADER, FOLDER_HEADER, parseAsctime } from './mbox-writer';

/** One message of an mbox, its content streamed while the file is read. */
export interface MboxMessage {
  /** The date its `From ` line gives. */
  date?: Date;
  /** Letterbox's folder and flags, when the entry has them (an export of Letterbox's). */
  folder?: string;
  flags: string[];
  content: Readable;
}

/** A file that is not an mbox: it does not start with a `From ` line. */
export class MboxFormatError extends Error {}

const LETTERBOX_HEADER = new RegExp(`^(${FOLDER_HEADER}|${FLAGS_HEADER}):[ ]?(.*?)\\r?\\n$`);

/** Messages whose `onMessage` may still be working once their content was read: a put's flush is shared with the next ones'. */
const MESSAGES_IN_FLIGHT = 8;

/**
 * Reads an mbox (RFC 4155, mboxrd) message by message: each is handed to `onMessage` as a
 * stream once its `From ` line and Letterbox's header lines are read, and the file is read
 * on as the stream is consumed; the next message comes once this one's content has been
 * read, while up to MESSAGES_IN_FLIGHT `onMessage`s finish their work. What
 * mboxEntry wrote comes back as it was: its header lines taken off, one `>` taken off each
 * `>+From ` line, the empty line that ends an entry taken off. Answers how many messages it read.
 */
export async function readMbox(source: Readable, onMessage: (message: MboxMessage) => Promise<void>): Promise<number> {
  let state: 'start' | 'from-line' | 'headers' | 'body' = 'start';
  let entry: Omit<MboxMessage, 'content'> = { flags: [] };
  let current: MessageSink | undefined;
  let count = 0;
  const inFlight = new Set<Promise<void>>();

  const begin = () => {
    current = new MessageSink((content) => onMessage({ ...entry, content }));
    count++;
    state = 'body';
  };
  const finish = async () => {
    if (state === 'headers') begin();
    if (!current) return;
    const { work } = await current.end();
    current = undefined;
    inFlight.add(work);
    void work.then(
      () => inFlight.delete(work),
      () => undefined,
    );
    if (inFlight.size >= MESSAGES_IN_FLIGHT) await Promise.race(inFlight);
  };

  for await (const piece of linePieces(source)) {
    if (piece.startsLine && fromLineQuotes(piece.bytes) === 0) {
      await finish();
      entry = { date: parseAsctime(piece.bytes.toString('latin1')), flags: [] };
      state = piece.endsLine ? 'headers' : 'from-line';
      continue;
    }
    if (state === 'start') throw new MboxFormatError('the file is not an mbox: it does not start with a "From " line');
    if (state === 'from-line') {
      if (piece.endsLine) state = 'headers';
      continue;
    }
    if (state === 'headers') {
      const header = piece.startsLine && piece.endsLine ? LETTERBOX_HEADER.exec(piece.bytes.toString('utf8')) : null;
      if (header?.[1] === FOLDER_HEADER) entry.folder = header[2];
      if (header?.[1] === FLAGS_HEADER) entry.flags = header[2].split(' ').filter(Boolean);
      if (header) continue;
      begin();
    }
    await current?.write(unquoted(piece));
  }
  await finish();
  await Promise.all(inFlight);
  return count;
}

function unquoted(piece: LinePiece): { bytes: Buffer; endsLine: boolean } {
  return { bytes: piece.startsLine && fromLineQuotes(piece.bytes) > 0 ? piece.bytes.subarray(1) : piece.bytes, endsLine: piece.endsLine };
}

/**
 * A message's content on its way to its consumer: the last line break is held back until
 * more of the message comes (at the end of an entry it is the separator's); writes are
 * gathered into pieces of PIECE_BYTES and wait while the consumer is behind.
 */
class MessageSink {
  private readonly content = new PassThrough({ highWaterMark: PIECE_BYTES });
  private readonly consumed: Promise<void>;
  private gathered: Buffer[] = [];
  private size = 0;
  private heldNewline = false;

  constructor(consume: (content: Readable) => Promise<void>) {
    this.consumed = consume(this.content);
    // Its failure is the import's: seen by write or end, not left unhandled meanwhile.
    this.consumed.catch(() => undefined);
  }

  async write({ bytes, endsLine }: { bytes: Buffer; endsLine: boolean }): Promise<void> {
    if (this.heldNewline) this.gather(NEWLINE);
    this.gather(endsLine ? bytes.subarray(0, -1) : bytes);
    this.heldNewline = endsLine;
    if (this.size >= PIECE_BYTES) await this.flush();
  }

  /** Resolves once the consumer has read the content to its end, with its promise of the rest of its work. */
  async end(): Promise<{ work: Promise<void> }> {
    await this.flush();
    this.content.end();
    await Promise.race([finished(this.content), this.consumed]);
    return { work: this.consumed };
  }

  private gather(bytes: Buffer): void {
    this.gathered.push(bytes);
    this.size += bytes.length;
  }

  private async flush(): Promise<void> {
    const bytes = Buffer.concat(this.gathered);
    [this.gathered, this.size] = [[], 0];
    if (bytes.length === 0 || this.content.write(bytes)) return;
    await Promise.race([new Promise((resolve) => this.content.once('drain', resolve)), this.consumed.then(() => undefined)]);
  }
}

const NEWLINE = Buffer.from('\n');
