/** How much one command may make the reader hold. */
export interface ReaderLimits {
  /** One line, its literals not counted (RFC 7162 asks servers to take at least 8 KB). */
  maxLineBytes: number;
  /** One literal. */
  maxLiteralBytes: number;
  /** A whole command: its lines and its literals. */
  maxCommandBytes: number;
}

/** One command as the client sent it: `lines[i]` ends with the literal marker `{n}` when `literals[i]` follows it. */
export interface RawCommand {
  lines: string[];
  literals: Buffer[];
}

export type ReaderEvent =
  | { kind: 'command'; command: RawCommand }
  /** Past a limit: the command is dropped (its bytes read and discarded), to be answered BAD; `closing` when the reader cannot find the next command. */
  | { kind: 'refused'; tag: string | undefined; reason: string; closing: boolean };

export interface ReaderListener {
  event(event: ReaderEvent): void;
  /** A synchronizing literal `{n}` is wanted: the client waits for `+` before sending it. */
  literalWanted(size: number): void;
}

const LF = 0x0a;
/** The bytes of a refused line kept for its tag, and for the literal marker its end may hold. */
const KEPT_HEAD = 64;
const KEPT_TAIL = 24;
const LITERAL_MARKER = /\{(\d{1,10})(\+)?\}\r?$/;

type State =
  | { name: 'line' }
  | { name: 'literal'; remaining: number; chunks: Buffer[] }
  | { name: 'discard-line'; head: Buffer; tail: Buffer; reason: string }
  | { name: 'closed' };

/**
 * Reads commands from a stream of bytes as they come, in chunks of any size: each byte is looked at once and never
 * held past the limits, so a client can neither make the server buffer without end nor make it work more than
 * what it sent. Lines and literals (`{n}`, and LITERAL+'s `{n+}`) are assembled into whole commands; parsing their
 * tokens is command-parser's.
 */
export class CommandReader {
  private state: State = { name: 'line' };
  private lineChunks: Buffer[] = [];
  private lineBytes = 0;
  private commandBytes = 0;
  private command: RawCommand = { lines: [], literals: [] };
  /** Moved on by discardPending: a chunk being read when it is called is read no further. */
  private generation = 0;

  constructor(
    private readonly limits: ReaderLimits,
    private readonly listener: ReaderListener,
  ) {}

  push(chunk: Buffer): void {
    const generation = this.generation;
    let offset = 0;
    while (offset < chunk.length && this.state.name !== 'closed' && generation === this.generation) {
      offset = this.state.name === 'literal' ? this.readLiteral(chunk, offset, this.state) : this.readLine(chunk, offset);
    }
  }

  /** Forgets everything not yet a whole command, the rest of the chunk being read included: after STARTTLS, nothing sent in the clear may count as sent under TLS. */
  discardPending(): void {
    this.generation++;
    this.state = { name: 'line' };
    this.resetLine();
    this.resetCommand();
  }

  private readLine(chunk: Buffer, offset: number): number {
    const newline = chunk.indexOf(LF, offset);
    const end = newline === -1 ? chunk.length : newline + 1;
    const piece = chunk.subarray(offset, end);
    if (this.state.name === 'discard-line') {
      this.keepTail(this.state, piece);
      if (newline !== -1) this.endDiscardedLine(this.state);
      return end;
    }
    this.lineBytes += piece.length;
    if (this.lineBytes > this.limits.maxLineBytes || this.commandBytes + this.lineBytes > this.limits.maxCommandBytes) {
      const head = Buffer.concat([...this.lineChunks, piece]).subarray(0, KEPT_HEAD);
      const reason =
        this.lineBytes > this.limits.maxLineBytes
          ? `line longer than ${this.limits.maxLineBytes} bytes`
          : `command longer than ${this.limits.maxCommandBytes} bytes`;
      const state = {
        name: 'discard-line' as const,
        head: this.command.lines.length > 0 ? Buffer.from(this.command.lines[0]) : head,
        tail: Buffer.alloc(0),
        reason,
      };
      this.keepTail(state, piece);
      this.resetLine();
      this.state = state;
      if (newline !== -1) this.endDiscardedLine(state);
      return end;
    }
    this.lineChunks.push(piece);
    if (newline !== -1) this.endLine();
    return end;
  }

  private endLine(): void {
    const line = Buffer.concat(this.lineChunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    this.commandBytes += this.lineBytes;
    this.resetLine();
    this.command.lines.push(line);
    const marker = LITERAL_MARKER.exec(line);
    if (!marker) {
      const command = this.command;
      this.resetCommand();
      this.listener.event({ kind: 'command', command });
      return;
    }
    const size = Number(marker[1]);
    const synchronizing = marker[2] === undefined;
    const problem =
      size > this.limits.maxLiteralBytes
        ? `literal of ${size} bytes, more than ${this.limits.maxLiteralBytes}`
        : this.commandBytes + size > this.limits.maxCommandBytes
          ? `command longer than ${this.limits.maxCommandBytes} bytes`
          : undefined;
    if (problem) {
      // A client told no sends no synchronizing literal; a non-synchronizing one is on its way, and its bytes are not commands.
      this.refuse(tagOf(Buffer.from(this.command.lines[0])), problem, !synchronizing);
      return;
    }
    this.state = { name: 'literal', remaining: size, chunks: [] };
    if (synchronizing) this.listener.literalWanted(size);
    if (size === 0) this.endLiteral([]);
  }

  private readLiteral(chunk: Buffer, offset: number, state: { remaining: number; chunks: Buffer[] }): number {
    const taken = Math.min(state.remaining, chunk.length - offset);
    state.chunks.push(chunk.subarray(offset, offset + taken));
    state.remaining -= taken;
    if (state.remaining === 0) this.endLiteral(state.chunks);
    return offset + taken;
  }

  private endLiteral(chunks: Buffer[]): void {
    const literal = Buffer.concat(chunks);
    this.commandBytes += literal.length;
    this.command.literals.push(literal);
    this.state = { name: 'line' };
  }

  private keepTail(state: { tail: Buffer }, piece: Buffer): void {
    state.tail = Buffer.concat([state.tail, piece.subarray(Math.max(0, piece.length - KEPT_TAIL))]).subarray(-KEPT_TAIL);
  }

  private endDiscardedLine(state: { head: Buffer; tail: Buffer; reason: string }): void {
    const marker = LITERAL_MARKER.exec(state.tail.toString('latin1').replace(/\n$/, ''));
    this.state = { name: 'line' };
    this.refuse(tagOf(state.head), state.reason, marker?.[2] === '+');
  }

  private refuse(tag: string | undefined, reason: string, closing: boolean): void {
    this.resetCommand();
    if (closing) this.state = { name: 'closed' };
    this.listener.event({ kind: 'refused', tag, reason, closing });
  }

  private resetLine(): void {
    this.lineChunks = [];
    this.lineBytes = 0;
  }

  private resetCommand(): void {
    this.command = { lines: [], literals: [] };
    this.commandBytes = 0;
  }
}

const TAG = /^([!#$&'+,\-./0-9:;<=>?@A-Z^_`a-z|~]+) /;

/** The tag a refused command began with, when it began with one: its BAD answer names it. */
export function tagOf(head: Buffer): string | undefined {
  return TAG.exec(head.toString('latin1'))?.[1];
}
