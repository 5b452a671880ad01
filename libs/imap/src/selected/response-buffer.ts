import type { Readable } from 'node:stream';
import type { Session } from '../session/command-handler';

/** Small responses gathered into one write of about this many bytes: a FETCH of FLAGS is a few dozen bytes a message. */
const FLUSH_BYTES = 64 * 1024;

/**
 * Response bytes on their way to the session: short pieces are gathered and written together, each write
 * waiting on the socket, and a literal's stream goes out after what came before it, never held.
 */
export class ResponseBuffer {
  private pieces: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly session: Pick<Session, 'write' | 'writeStream'>) {}

  async add(piece: Buffer | string): Promise<void> {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece;
    this.pieces.push(bytes);
    this.bytes += bytes.length;
    if (this.bytes >= FLUSH_BYTES) await this.flush();
  }

  async stream(stream: Readable): Promise<void> {
    await this.flush();
    await this.session.writeStream(stream);
  }

  async flush(): Promise<void> {
    if (this.bytes === 0) return;
    const bytes = Buffer.concat(this.pieces);
    this.pieces = [];
    this.bytes = 0;
    await this.session.write(bytes);
  }
}
