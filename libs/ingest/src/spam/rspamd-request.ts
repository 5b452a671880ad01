import net from 'node:net';

/** Where rspamd's scanner listens. */
export interface RspamdAddress {
  host: string;
  port: number;
}

/** rspamd's answer to one request. */
export interface RspamdAnswer {
  status: number;
  body: Buffer;
}

/** rspamd did not answer within the time it was given. */
export class RspamdTimeout extends Error {}

/** The most of an answer read: a verdict naming every symbol with its options is a few tens of KB. */
const MAX_ANSWER_BYTES = 1 << 20;

/** What a header value may not hold: control characters, CR and LF among them, would end its line early. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

/**
 * One POST to rspamd's scanner on a connection of its own, written and read here rather than
 * through node:http: rspamd 3.4 closes every connection after its answer, so no agent can keep
 * one alive, and node:http's client with its agent spent 0.7–1.1 ms of our CPU on each message,
 * against 0.4–0.7 ms here, while rspamd spent about 2 ms scoring it (bench/README.md, issue 32).
 * Asked as HTTP/1.0, which rspamd answers with its Content-Length and then closes. Fails on a
 * timeout, a header value with a control character, a connection closed early, or an answer
 * larger than MAX_ANSWER_BYTES.
 */
export function postToRspamd(address: RspamdAddress, path: string, headers: Array<[string, string]>, body: Buffer, timeoutMs: number): Promise<RspamdAnswer> {
  const invalid = headers.find(([, value]) => CONTROL_CHARACTERS.test(value));
  if (invalid) return Promise.reject(new Error(`rspamd's ${invalid[0]} header would hold a control character`));
  const head = `POST ${path} HTTP/1.0\r\nContent-Length: ${body.length}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    const answer = new AnswerReader();
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      return true;
    };
    const timer = setTimeout(() => fail(new RspamdTimeout(`rspamd did not answer within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error: Error) => {
      if (settle()) reject(error);
    };
    const finish = () => {
      if (!settle()) return;
      try {
        resolve(answer.complete());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    // Written while it connects: the socket sends both once connected.
    socket.write(head);
    socket.write(body);
    socket.on('data', (chunk: Buffer) => {
      if (!answer.add(chunk)) fail(new Error(`rspamd's answer is larger than ${MAX_ANSWER_BYTES} bytes`));
      else if (answer.isWhole()) finish();
    });
    socket.on('end', finish);
    socket.on('error', fail);
  });
}

/** An HTTP answer as its bytes arrive: whole when its Content-Length is read, or when the connection ends. */
class AnswerReader {
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private bodyStart = -1;
  private contentLength: number | undefined;

  /** False when the answer has grown past MAX_ANSWER_BYTES. */
  add(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (this.bodyStart < 0) this.readHead();
    return this.received <= MAX_ANSWER_BYTES;
  }

  isWhole(): boolean {
    return this.contentLength !== undefined && this.received - this.bodyStart >= this.contentLength;
  }

  complete(): RspamdAnswer {
    if (this.bodyStart < 0) throw new Error('rspamd closed the connection before its answer');
    const bytes = Buffer.concat(this.chunks, this.received);
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(bytes.toString('latin1', 0, 16));
    if (!status) throw new Error('rspamd answered something other than HTTP');
    const end = this.contentLength === undefined ? bytes.length : this.bodyStart + this.contentLength;
    if (end > bytes.length) throw new Error('rspamd closed the connection before the end of its answer');
    return { status: Number(status[1]), body: bytes.subarray(this.bodyStart, end) };
  }

  private readHead(): void {
    const bytes = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.received);
    const headEnd = bytes.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    this.bodyStart = headEnd + 4;
    const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(bytes.toString('latin1', 0, headEnd));
    this.contentLength = length ? Number(length[1]) : undefined;
  }
}
