import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/** A literal's bytes kept in the line handed on; longer ones are counted and skipped (a 22 MB body is never held). */
const KEPT_LITERAL_BYTES = 64 * 1024;
const LITERAL_AT_END = /\{(\d+)\+?\}$/;
const CR = 13;
const LF = 10;

/** What one command's answer cost on the wire: every response line up to the tagged one, and their bytes. */
export interface CommandAnswer {
  /** The tagged completion, e.g. "a1 OK FETCH completed". */
  completion: string;
  /** Response lines before it (a literal and the rest of its line count as one). */
  untaggedLines: number;
  /** Bytes from the command's first response byte to the completion's CRLF, literals included. */
  bytes: number;
  /** From writing the command to its completion. */
  ms: number;
}

/**
 * An IMAP client on a raw socket that counts rather than keeps: a `UID FETCH 1:*` of a million mails
 * is read as a million lines counted, where a full client would hold a million parsed responses.
 * Literals are followed by length, so a line holding one is one response line.
 */
export class ImapWireClient {
  private pending: Buffer = Buffer.alloc(0);
  /** The response line being put together, and the literal bytes it still awaits. */
  private partial: string[] = [];
  private literalLeft = 0;
  private literalKept: Buffer[] = [];
  /** Lines that came while nobody listened (the greeting). */
  private readonly unread: string[] = [];
  private listener: ((line: string) => void) | undefined;
  private closedWith: ((error: Error) => void) | undefined;
  private bytesSinceCommand = 0;
  private closed = false;
  private tags = 0;
  /** Called with every untagged response line as it arrives, e.g. to watch for EXISTS while idling. */
  onUntagged: ((line: string) => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => {
      this.closed = true;
      this.closedWith?.(new Error('the IMAP server closed the connection'));
    });
    socket.on('error', () => undefined);
  }

  static async connect(port: number, host = '127.0.0.1'): Promise<ImapWireClient> {
    const socket = connect(port, host);
    socket.setNoDelay(true);
    await once(socket, 'connect');
    const client = new ImapWireClient(socket);
    const greeting = await client.listen<string>((line, done) => done(line));
    if (!greeting.startsWith('* OK')) throw new Error(`the IMAP server greeted with ${JSON.stringify(greeting)}`);
    return client;
  }

  /** Sends a command and answers its cost once the tagged completion came; a NO or BAD is thrown. */
  async command(text: string): Promise<CommandAnswer> {
    const tag = `b${++this.tags}`;
    const started = performance.now();
    this.bytesSinceCommand = 0;
    let untaggedLines = 0;
    const answer = this.listen<CommandAnswer>((line, done, fail) => {
      if (!line.startsWith(`${tag} `)) {
        untaggedLines += 1;
        if (line.startsWith('* ')) this.onUntagged?.(line);
      } else if (line.startsWith(`${tag} OK`)) {
        done({ completion: line, untaggedLines, bytes: this.bytesSinceCommand, ms: performance.now() - started });
      } else {
        fail(new Error(`${text.split(' ', 3).join(' ')} answered ${line.slice(0, 300)}`));
      }
    });
    this.socket.write(`${tag} ${text}\r\n`);
    return answer;
  }

  async login(email: string, password: string): Promise<void> {
    await this.command(`LOGIN ${quoted(email)} ${quoted(password)}`);
  }

  /** Starts IDLE and resolves on the server's continuation; untagged lines then reach onUntagged as they come, until close. */
  async idle(): Promise<void> {
    const tag = `b${++this.tags}`;
    const continued = this.listen<void>((line, done, fail) => {
      if (line.startsWith('+')) done();
      else if (line.startsWith(`${tag} `)) fail(new Error(`IDLE answered ${line}`));
      else if (line.startsWith('* ')) this.onUntagged?.(line);
    });
    this.socket.write(`${tag} IDLE\r\n`);
    await continued;
    this.listener = (line) => {
      if (line.startsWith('* ')) this.onUntagged?.(line);
    };
  }

  close(): void {
    this.socket.destroy();
  }

  /** Hands every line, from those already read on, to `take` until it calls done or fail. */
  private listen<T>(take: (line: string, done: (value: T) => void, fail: (error: Error) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let finished = false;
      const finish = () => {
        finished = true;
        this.listener = undefined;
        this.closedWith = undefined;
      };
      const done = (value: T) => {
        finish();
        resolve(value);
      };
      const fail = (error: Error) => {
        finish();
        reject(error);
      };
      this.listener = (line) => take(line, done, fail);
      this.closedWith = fail;
      while (!finished && this.unread.length > 0) take(this.unread.shift() as string, done, fail);
      if (!finished && this.closed) fail(new Error('the IMAP server closed the connection'));
    });
  }

  private receive(chunk: Buffer): void {
    this.bytesSinceCommand += chunk.length;
    const data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    for (;;) {
      if (this.literalLeft > 0) {
        const taken = Math.min(this.literalLeft, data.length - at);
        const keptRoom = KEPT_LITERAL_BYTES - this.literalKept.reduce((sum, part) => sum + part.length, 0);
        if (keptRoom > 0) this.literalKept.push(Buffer.from(data.subarray(at, at + Math.min(taken, keptRoom))));
        this.literalLeft -= taken;
        at += taken;
        if (this.literalLeft > 0) break;
        this.partial.push(Buffer.concat(this.literalKept).toString('latin1'));
        this.literalKept = [];
      }
      const end = data.indexOf(LF, at);
      if (end === -1) break;
      const text = data.toString('latin1', at, end > at && data[end - 1] === CR ? end - 1 : end);
      at = end + 1;
      this.partial.push(text);
      const literal = LITERAL_AT_END.exec(text);
      if (literal) {
        // A literal's bytes, then the rest of the same response line.
        this.literalLeft = Number(literal[1]);
        continue;
      }
      const line = this.partial.length === 1 ? text : this.partial.join('');
      this.partial = [];
      if (this.listener) this.listener(line);
      else this.unread.push(line);
    }
    this.pending = at < data.length ? Buffer.from(data.subarray(at)) : Buffer.alloc(0);
  }
}

function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}
