import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/**
 * An IMAP connection driven line by line, for what real clients never send: over-long lines, malformed
 * commands, commands pipelined behind STARTTLS. Answers are read as the server's lines, as text.
 */
export class RawImapClient {
  private buffer = '';
  private waiting: (() => void) | undefined;
  private ended = false;

  private constructor(private socket: Socket) {
    this.listen(socket);
  }

  static async connect(port: number): Promise<{ client: RawImapClient; greeting: string }> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const client = new RawImapClient(socket);
    return { client, greeting: await client.line() };
  }

  write(text: string | Buffer): void {
    this.socket.write(text);
  }

  /** Sends `tag text` and answers every line up to the tagged one, that one included. */
  async command(tag: string, text: string): Promise<string[]> {
    this.write(`${tag} ${text}\r\n`);
    return this.until(tag);
  }

  async until(tag: string): Promise<string[]> {
    const lines: string[] = [];
    for (;;) {
      const line = await this.line();
      lines.push(line);
      if (line.startsWith(`${tag} `)) return lines;
    }
  }

  async line(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n');
      if (end !== -1) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return line;
      }
      if (this.ended) throw new Error(`the server closed the connection; unread: ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** The TLS handshake on this connection, after the server's OK to STARTTLS; what the client had unread is dropped. */
  async startTls(): Promise<void> {
    this.socket.removeAllListeners('data');
    const secure = connectTls({ socket: this.socket, rejectUnauthorized: false });
    await once(secure, 'secureConnect');
    this.socket = secure;
    this.listen(secure);
  }

  /** Resolves when the server has closed the connection. */
  async closed(): Promise<void> {
    if (!this.ended) await once(this.socket, 'close');
  }

  close(): void {
    this.socket.destroy();
  }

  private listen(socket: Socket): void {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.wake();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake();
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
