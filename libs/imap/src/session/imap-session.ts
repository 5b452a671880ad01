import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';
import type { MailClientUser } from '@letterbox/accounts';
import { loggerFor } from '@letterbox/observability';
import { COMMANDS } from '../commands/command-table';
import { CommandReader, type ReaderEvent, type ReaderLimits } from '../protocol/command-reader';
import type { LiteralIntake, LiteralRequest, StreamedLiteral } from '../protocol/literal-intake';
import { parseCommand, TaggedCommandError, type ParsedCommand } from '../protocol/command-parser';
import { continuation, encodeResponse, tagged, untagged, type ResponsePart } from '../protocol/response-format';
import { ResponseWriteError, writeResponse, type StreamedResponsePart } from '../protocol/response-writer';
import { ImapCommandError } from '../protocol/tokens';
import { reportChanges, type ReportOptions } from '../selected/report-changes';
import type { SelectedMailbox } from '../selected/selected-mailbox';
import { capabilitiesOf } from './capabilities';
import type { Completion, ImapServices, Session } from './command-handler';
import type { Release } from './connection-limits';
import type { SessionState } from './session-state';

const logger = loggerFor('imap');

/** Whole commands read ahead of the one running; past it the socket is not read until the session catches up. */
const MAX_QUEUED = 16;

export interface SessionOptions {
  services: ImapServices;
  limits: ReaderLimits;
  /** Without a byte either way for this long, the session says BYE (RFC 3501: at least 30 minutes). */
  idleTimeoutMs: number;
  secure: boolean;
  clientAddress: string;
}

/**
 * One connection: reads its commands in order, runs each in turn through the command table in the states it
 * allows, and answers. A malformed command is answered BAD and the next one read; a handler's failure is logged
 * and answered NO, and ends nothing but that command. Its output waits for the socket to drain before the next
 * command runs, and its input is not read while commands wait, so a slow or flooding client holds only its own.
 */
export class ImapSession implements Session {
  state: SessionState = 'not-authenticated';
  user: MailClientUser | undefined;
  secure: boolean;
  readonly clientAddress: string;
  readonly enabled = new Set<string>();
  private socket: Socket;
  private readonly reader: CommandReader;
  private readonly queue: ReaderEvent[] = [];
  private running = false;
  private closed = false;
  private waiter: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  private releaseUser: Release | undefined;
  private selectedMailbox: SelectedMailbox | undefined;
  private readonly closeListeners: (() => void)[] = [];
  private readonly onData = (chunk: Buffer) => this.reader.push(chunk);
  /** The responses being written by `write`, in order: a `send` meanwhile goes after them, never into a literal. */
  private output: Promise<void> = Promise.resolve();
  private writesPending = 0;
  /** The reader holds the input: a streamed literal's consumer is behind, or its intake is deciding. */
  private inputHeld = false;

  constructor(
    socket: Socket,
    private readonly options: SessionOptions,
  ) {
    this.socket = socket;
    this.secure = options.secure;
    this.clientAddress = options.clientAddress;
    this.reader = new CommandReader(options.limits, {
      event: (event) => this.received(event),
      literalWanted: () => this.send(continuation('Ready for the literal')),
      literalIntake: (request) => this.literalIntake(request),
      hold: (held) => this.holdInput(held),
    });
  }

  start(): void {
    this.attach(this.socket);
    this.send(untagged(`OK [CAPABILITY ${this.capabilities().join(' ')}] Letterbox IMAP ready`));
  }

  /** Runs once the connection is closed, whichever side closed it. */
  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** Says BYE with `text` and closes: the server is stopping. */
  shutdown(text: string): void {
    this.send(untagged(`BYE ${text}`));
    this.close();
  }

  /** Cuts the connection without a word: a shutdown's last resort. */
  destroy(): void {
    this.socket.destroy();
  }

  capabilities(): string[] {
    return capabilitiesOf(this, { allowPlaintext: this.options.services.allowPlaintext, tls: this.options.services.tlsContext() !== undefined });
  }

  userId(): number {
    if (!this.user) throw new Error(`a command of the signed-in states ran in ${this.state}`);
    return this.user.id;
  }

  send(parts: ResponsePart[]): void {
    if (this.writesPending > 0) {
      this.write(parts).catch((error: unknown) => logger.debug({ err: error, clientAddress: this.clientAddress }, 'IMAP response not written'));
      return;
    }
    if (!this.closed && this.socket.writable) this.socket.write(encodeResponse(parts));
  }

  write(parts: StreamedResponsePart[]): Promise<void> {
    this.writesPending++;
    const written = this.output.then(() => writeResponse(this.socket, parts)).finally(() => this.writesPending--);
    this.output = written.then(ignore, ignore);
    return written.catch((error: unknown) => {
      // Cut short, a response leaves the client inside a literal: nothing more can be said on this connection.
      this.socket.destroy();
      throw error instanceof ResponseWriteError ? new ImapCommandError(error.message) : error;
    });
  }

  readContinuationLine(): Promise<string> {
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      const next = this.queue.shift();
      if (next) settleWaiter(waiter, next);
      else if (this.closed) reject(new ImapCommandError('the connection closed'));
      else this.waiter = waiter;
    });
  }

  async signedIn(user: MailClientUser): Promise<boolean> {
    const release = await this.options.services.limits.signIn(user.id);
    if (!release) return false;
    if (this.closed) {
      release();
      return false;
    }
    this.releaseUser = release;
    this.user = user;
    this.state = 'authenticated';
    return true;
  }

  enable(extension: string): void {
    this.enabled.add(extension);
  }

  selected(): SelectedMailbox | undefined {
    return this.selectedMailbox;
  }

  select(mailbox: SelectedMailbox): void {
    this.selectedMailbox = mailbox;
    this.state = 'selected';
  }

  unselect(): void {
    this.selectedMailbox = undefined;
    if (this.state === 'selected') this.state = 'authenticated';
  }

  reportChanges(options?: ReportOptions): Promise<void> {
    return reportChanges(this, this.options.services, options);
  }

  stopReadingForTls(): void {
    this.socket.off('data', this.onData);
    this.reader.discardPending();
    this.queue.length = 0;
  }

  upgradeToTls(context: SecureContext): void {
    const plain = this.socket;
    plain.setTimeout(0);
    const secure = new TLSSocket(plain, { isServer: true, secureContext: context });
    secure.once('secure', () => {
      this.secure = true;
    });
    this.socket = secure;
    this.attach(secure);
  }

  close(): void {
    this.state = 'logout';
    this.socket.end();
  }

  private attach(socket: Socket): void {
    socket.on('data', this.onData);
    socket.setTimeout(this.options.idleTimeoutMs);
    socket.on('timeout', () => {
      this.send(untagged('BYE Autologout; idle for too long'));
      this.close();
    });
    socket.on('drain', () => void this.pump());
    socket.on('error', (error) => logger.debug({ err: error, clientAddress: this.clientAddress }, 'IMAP connection error'));
    socket.on('close', () => this.closedNow());
  }

  /** The intake of the command the literal belongs to, when its handler streams literals (APPEND). */
  private literalIntake(request: LiteralRequest): LiteralIntake | undefined {
    const name = /^\S+ ([A-Za-z]+)/.exec(request.lines[0])?.[1]?.toUpperCase();
    return name ? COMMANDS.get(name)?.literalIntake?.(request, this, this.options.services) : undefined;
  }

  private holdInput(held: boolean): void {
    this.inputHeld = held;
    if (held) this.socket.pause();
    else if (this.queue.length < MAX_QUEUED) this.socket.resume();
  }

  private closedNow(): void {
    if (this.closed) return;
    this.closed = true;
    this.state = 'logout';
    this.selectedMailbox = undefined;
    this.releaseUser?.();
    this.reader.end();
    this.waiter?.reject(new ImapCommandError('the connection closed'));
    this.waiter = undefined;
    this.closeListeners.forEach((listener) => listener());
  }

  private received(event: ReaderEvent): void {
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      settleWaiter(waiter, event);
      if (event.kind === 'refused' && event.closing) this.shutdown('The command cannot be read past its literal; closing');
      return;
    }
    this.queue.push(event);
    if (this.queue.length >= MAX_QUEUED) this.socket.pause();
    void this.pump();
  }

  /** Runs the queued commands one after another, each once the previous one's output has drained. */
  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed && !this.socket.writableNeedDrain) {
        const event = this.queue.shift();
        if (!event) break;
        if (!this.inputHeld) this.socket.resume();
        await this.handle(event);
      }
    } catch (error) {
      logger.error({ err: error, clientAddress: this.clientAddress }, 'IMAP session failed');
      this.socket.destroy();
    } finally {
      this.running = false;
    }
  }

  private async handle(event: ReaderEvent): Promise<void> {
    if (event.kind === 'refused') {
      const status = event.code ? 'NO' : 'BAD';
      this.send(event.tag ? tagged(event.tag, status, event.reason, event.code) : untagged(`BAD ${event.reason}`));
      if (event.closing) this.shutdown('The command cannot be read past its literal; closing');
      return;
    }
    let command: ParsedCommand;
    try {
      command = parseCommand(event.command);
    } catch (error) {
      if (!(error instanceof TaggedCommandError)) throw error;
      this.send(error.tag ? tagged(error.tag, 'BAD', error.message) : untagged(`BAD ${error.message}`));
      return;
    }
    const streamed = event.command.streamed;
    const completion = await this.run(command, streamed);
    if (streamed) await readPast(streamed);
    if (this.closed) return;
    if (this.state === 'selected') await this.reportChanges({ expunges: !HOLDS_EXPUNGES.has(command.name) });
    if (this.closed) return;
    this.send(tagged(command.tag, completion.status, completion.text, completion.code));
    completion.after?.();
  }

  private async run(command: ParsedCommand, literal: StreamedLiteral | undefined): Promise<Completion> {
    const handler = COMMANDS.get(command.name);
    if (!handler) return { status: 'BAD', text: `Unknown command ${command.name}` };
    if (!handler.states.includes(this.state)) return { status: 'BAD', text: `${command.name} is not allowed ${STATE_WORDS[this.state]}` };
    try {
      return await handler.run({
        tag: command.tag,
        name: command.name,
        args: command.args,
        session: this,
        services: this.options.services,
        ...(literal ? { literal } : {}),
      });
    } catch (error) {
      if (error instanceof ImapCommandError) return { status: error.status, text: error.message, ...(error.code ? { code: error.code } : {}) };
      logger.error({ err: error, command: command.name, clientAddress: this.clientAddress }, 'IMAP command failed');
      return { status: 'NO', code: 'SERVERBUG', text: `${command.name} failed on the server; try again later` };
    }
  }
}

/** Commands whose answer may not hold an EXPUNGE (RFC 3501 7.4.1); their UID forms may. */
const HOLDS_EXPUNGES = new Set(['FETCH', 'STORE', 'SEARCH']);

const STATE_WORDS: Record<SessionState, string> = {
  'not-authenticated': 'before signing in',
  authenticated: 'once signed in',
  selected: 'with a mailbox selected',
  logout: 'while logging out',
};

const ignore = () => undefined;

/** What a handler left unread of a streamed literal, and of the rest of its command, is read and dropped: the next command follows them. */
async function readPast(literal: StreamedLiteral): Promise<void> {
  let next: StreamedLiteral | undefined = literal;
  while (next) {
    next.stream.resume();
    next = (await next.rest.catch(ignore))?.streamed;
  }
}

function settleWaiter(waiter: { resolve: (line: string) => void; reject: (error: Error) => void }, event: ReaderEvent): void {
  if (event.kind === 'refused') waiter.reject(new ImapCommandError(event.reason));
  else if (event.command.literals.length > 0) waiter.reject(new ImapCommandError('expected a line, not a literal'));
  else waiter.resolve(event.command.lines[0]);
}
