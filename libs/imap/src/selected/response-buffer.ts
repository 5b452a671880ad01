import type { StreamedResponsePart } from '../protocol/response-writer';
import type { Session } from '../session/command-handler';

/** Small responses gathered into one write of about this many bytes: a FETCH of FLAGS is a few dozen bytes a message. */
const FLUSH_BYTES = 64 * 1024;

/**
 * Responses on their way to the session: short ones are gathered and written together, each write waiting on the
 * socket; one with a literal stream is written at once, its stream read as the socket takes it, never held.
 */
export class ResponseBuffer {
  private parts: StreamedResponsePart[] = [];
  private bytes = 0;

  constructor(private readonly session: Pick<Session, 'write'>) {}

  /** One whole response, without its CRLF. */
  async add(response: StreamedResponsePart[]): Promise<void> {
    if (this.parts.length > 0) this.parts.push('\r\n');
    this.parts.push(...response);
    this.bytes += response.reduce((total, part) => total + sizeOf(part), 2);
    if (this.bytes >= FLUSH_BYTES || response.some((part) => typeof part !== 'string' && 'literalStream' in part)) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const parts = this.parts;
    this.parts = [];
    this.bytes = 0;
    await this.session.write(parts);
  }
}

function sizeOf(part: StreamedResponsePart): number {
  if (typeof part === 'string') return part.length;
  if ('raw' in part) return part.raw.length;
  return 'literal' in part ? part.literal.length : 0;
}
