import type { Readable } from 'node:stream';
import type { RawCommand } from './command-reader';

/** A literal about to be read: the command so far (its last line ends with the literal's marker) and the literal's size. */
export interface LiteralRequest {
  lines: readonly string[];
  literals: readonly Buffer[];
  size: number;
  synchronizing: boolean;
}

/** A literal refused before a byte of it is read: the command is answered `NO [code] text`. */
export interface LiteralRefusal {
  code: string;
  text: string;
}

/** How a command takes a literal that may be large (APPEND's message): streamed as it arrives, not held. */
export interface LiteralIntake {
  /** The largest literal the command takes: past it, `NO [TOOBIG]` unread. */
  maxBytes: number;
  /** Decides before a byte of the literal is read (and before `+` is sent): a refusal (OVERQUOTA) answers NO; undefined admits it. */
  admit(size: number): Promise<LiteralRefusal | undefined>;
}

/**
 * A literal a command takes as a stream. Its bytes flow into `stream` as the client sends them, the reading held
 * while the stream's buffer is full; `rest` is what follows it in the command (APPEND's empty line, MULTIAPPEND's
 * next message), read once the literal is. `rest` rejects with ImapCommandError when it is refused or the connection
 * closes, and so does `stream` when the connection closes within it.
 */
export interface StreamedLiteral {
  size: number;
  stream: Readable;
  rest: Promise<RawCommand>;
}
