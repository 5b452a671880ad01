import { Readable } from 'node:stream';
import type { LiteralIntake, LiteralRefusal, LiteralRequest, StreamedLiteral } from './literal-intake';
import { ImapCommandError } from './tokens';

/** How much one command may make the reader hold. */
export interface ReaderLimits {
  /** One line, its literals not counted (RFC 7162 asks servers to take at least 8 KB). */
  maxLineBytes: number;
  /** One literal held in memory; also the most bytes of a refused non-synchronizing literal read to skip it. */
  maxLiteralBytes: number;
  /** A whole command: its lines and its literals. */
  maxCommandBytes: number;
}

/**
 * One command as the client sent it: `lines[i]` ends with the literal marker `{n}` when `literals[i]` follows it.
 * With `streamed`, the command is handed over at a literal its command takes as a stream (LiteralIntake): the last
 * line's marker is taken off, the literal's place being after that line's tokens.
 */
export interface RawCommand {
  lines: string[];
  literals: Buffer[];
  streamed?: StreamedLiteral;
}

export type ReaderEvent =
  | { kind: 'command'; command: RawCommand }
  /**
   * Past a limit: the command is dropped (its bytes read and discarded), to be answered BAD, or NO [code] when a
   * LiteralIntake refused its literal; `closing` when the reader cannot find the next command.
   */
  | { kind: 'refused'; tag: string | undefined; reason: string; closing: boolean; code?: string };

export interface ReaderListener {
  event(event: ReaderEvent): void;
  /** A synchronizing literal `{n}` is wanted: the client waits for `+` before sending it. */
  literalWanted(size: number): void;
  /** Whether the command takes this literal as a stream; undefined (or no intake): in memory, within ReaderLimits. */
  literalIntake?(request: LiteralRequest): LiteralIntake | undefined;
  /** Input must stop (true) or may go on (false): a streamed literal's consumer is behind, or its admission is being decided. */
  hold?(held: boolean): void;
}

const LF = 0x0a;
/** The bytes of a refused line kept for its tag, and for the literal marker its end may hold. */
const KEPT_HEAD = 64;
const KEPT_TAIL = 24;
/** `{n}`, LITERAL+'s `{n+}`, and BINARY's literal8 `~{n}` (RFC 3516 4.4: APPEND's message may hold NULs). */
const LITERAL_MARKER = /~?\{(\d{1,10})(\+)?\}\r?$/;
/** What a streamed literal's stream buffers before the reading is held. */
const STREAM_BUFFER = 64 * 1024;

type State =
  | { name: 'line' }
  | { name: 'literal'; remaining: number; chunks: Buffer[] }
  | { name: 'admitting'; stash: Buffer[] }
  | { name: 'streamed'; remaining: number; stream: Readable }
  | { name: 'skip-literal'; remaining: number }
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
  /** The command a streamed literal's `rest` is waiting for. */
  private rest: { resolve: (command: RawCommand) => void; reject: (error: Error) => void } | undefined;
  private heldForStream = false;

  constructor(
    private readonly limits: ReaderLimits,
    private readonly listener: ReaderListener,
  ) {}

  push(chunk: Buffer): void {
    const generation = this.generation;
    let offset = 0;
    while (offset < chunk.length && this.state.name !== 'closed' && generation === this.generation) {
      const state = this.state;
      if (state.name === 'admitting') {
        state.stash.push(chunk.subarray(offset));
        return;
      }
      if (state.name === 'literal') offset = this.readLiteral(chunk, offset, state);
      else if (state.name === 'streamed') offset = this.readStreamed(chunk, offset, state);
      else if (state.name === 'skip-literal') offset = this.skipLiteral(chunk, offset, state);
      else offset = this.readLine(chunk, offset);
    }
  }

  /** The connection is gone: a streamed literal being read, and the rest its command waits for, fail. */
  end(): void {
    this.abandonStreamed();
    this.state = { name: 'closed' };
  }

  /** Forgets everything not yet a whole command, the rest of the chunk being read included: after STARTTLS, nothing sent in the clear may count as sent under TLS. */
  discardPending(): void {
    this.abandonStreamed();
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
      this.deliver(command);
      return;
    }
    const size = Number(marker[1]);
    const synchronizing = marker[2] === undefined;
    const intake = this.listener.literalIntake?.({ lines: this.command.lines, literals: this.command.literals, size, synchronizing });
    if (intake) {
      this.admit(intake, size, synchronizing);
      return;
    }
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

  /** Holds the input while the intake decides; then streams the literal, or refuses it unread. */
  private admit(intake: LiteralIntake, size: number, synchronizing: boolean): void {
    const generation = this.generation;
    const state = { name: 'admitting' as const, stash: [] as Buffer[] };
    this.state = state;
    this.listener.hold?.(true);
    const tooBig: LiteralRefusal | undefined =
      size > intake.maxBytes ? { code: 'TOOBIG', text: `a literal of ${size} bytes, more than the ${intake.maxBytes} this command takes` } : undefined;
    const decision = tooBig ? Promise.resolve(tooBig) : intake.admit(size);
    decision.then(
      (refusal) => {
        if (generation !== this.generation || this.state !== state) return;
        if (refusal) this.refuseLiteral(refusal, size, synchronizing);
        else this.startStreamed(size, synchronizing);
        this.listener.hold?.(false);
        for (const chunk of state.stash) this.push(chunk);
      },
      (error: unknown) => {
        if (generation !== this.generation || this.state !== state) return;
        this.refuseLiteral({ code: 'SERVERBUG', text: `the literal could not be taken: ${(error as Error).message}` }, size, synchronizing);
        this.listener.hold?.(false);
        for (const chunk of state.stash) this.push(chunk);
      },
    );
  }

  /** A synchronizing literal is not sent once refused; a non-synchronizing one is on its way, skipped when small enough. */
  private refuseLiteral(refusal: LiteralRefusal, size: number, synchronizing: boolean): void {
    const tag = tagOf(Buffer.from(this.command.lines[0]));
    if (synchronizing || size <= this.limits.maxLiteralBytes) {
      this.refuse(tag, refusal.text, false, refusal.code);
      this.state = synchronizing ? { name: 'line' } : { name: 'skip-literal', remaining: size };
      return;
    }
    this.refuse(tag, refusal.text, true, refusal.code);
  }

  private startStreamed(size: number, synchronizing: boolean): void {
    const stream = new Readable({ highWaterMark: STREAM_BUFFER, read: () => this.streamWanted() });
    // A consumer that gives up (destroys the stream) must not leave the input held: the rest is read past.
    stream.once('close', () => {
      if (this.state.name === 'streamed' && this.state.stream === stream) this.streamWanted();
    });
    let waiting: typeof this.rest;
    const rest = new Promise<RawCommand>((resolve, reject) => (waiting = { resolve, reject }));
    // A handler that never asks for the rest leaves its rejection to nobody: the session reads past it.
    rest.catch(() => undefined);
    const lines = this.command.lines.slice();
    lines[lines.length - 1] = lines[lines.length - 1].replace(LITERAL_MARKER, '');
    const command: RawCommand = { lines, literals: this.command.literals, streamed: { size, stream, rest } };
    this.resetCommand();
    this.state = { name: 'streamed', remaining: size, stream };
    if (synchronizing) this.listener.literalWanted(size);
    this.deliver(command);
    this.rest = waiting;
    if (size === 0) this.endStreamed(stream);
  }

  private readStreamed(chunk: Buffer, offset: number, state: { remaining: number; stream: Readable }): number {
    const taken = Math.min(state.remaining, chunk.length - offset);
    state.remaining -= taken;
    // A consumer that stopped (destroyed its stream) leaves the rest of the literal to be read past.
    if (!state.stream.destroyed && !state.stream.push(chunk.subarray(offset, offset + taken)) && state.remaining > 0) {
      this.heldForStream = true;
      this.listener.hold?.(true);
    }
    if (state.remaining === 0) this.endStreamed(state.stream);
    return offset + taken;
  }

  private endStreamed(stream: Readable): void {
    if (!stream.destroyed) stream.push(null);
    this.state = { name: 'line' };
  }

  private streamWanted(): void {
    if (!this.heldForStream) return;
    this.heldForStream = false;
    this.listener.hold?.(false);
  }

  private skipLiteral(chunk: Buffer, offset: number, state: { remaining: number }): number {
    const taken = Math.min(state.remaining, chunk.length - offset);
    state.remaining -= taken;
    // The refused command's rest of line goes with its literal: discarded, its refusal already given.
    if (state.remaining === 0) this.state = { name: 'discard-line', head: Buffer.alloc(0), tail: Buffer.alloc(0), reason: '' };
    return offset + taken;
  }

  private abandonStreamed(): void {
    const closed = new ImapCommandError('the connection closed');
    if (this.state.name === 'streamed') this.state.stream.destroy(closed);
    this.rest?.reject(closed);
    this.rest = undefined;
    if (this.heldForStream) this.streamWanted();
  }

  /** A whole command, or the rest a streamed literal's command waits for. */
  private deliver(command: RawCommand): void {
    const rest = this.rest;
    this.rest = undefined;
    if (rest) rest.resolve(command);
    else this.listener.event({ kind: 'command', command });
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
    if (state.reason === '') {
      // The rest of a command whose literal was refused and skipped: one more LITERAL+ literal cannot be skipped too.
      if (marker?.[2] === '+') this.refuse(undefined, 'a refused command went on with another literal', true);
      return;
    }
    this.refuse(tagOf(state.head), state.reason, marker?.[2] === '+');
  }

  private refuse(tag: string | undefined, reason: string, closing: boolean, code?: string): void {
    this.resetCommand();
    if (closing) this.state = { name: 'closed' };
    const rest = this.rest;
    this.rest = undefined;
    if (rest) {
      // The command was handed over at its streamed literal: its handler answers, by this rejection.
      rest.reject(new ImapCommandError(reason, code ? 'NO' : 'BAD', code));
      if (closing) this.listener.event({ kind: 'refused', tag: undefined, reason, closing });
      return;
    }
    this.listener.event({ kind: 'refused', tag, reason, closing, ...(code ? { code } : {}) });
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
