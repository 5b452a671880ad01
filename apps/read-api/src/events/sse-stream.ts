import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/** How far a client may fall behind before its stream is cut; it reconnects and resumes from its last event. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface SseTiming {
  /** How long a client waits before reconnecting. */
  retryMs: number;
  /** How often a comment is sent, so proxies do not close a quiet stream. */
  heartbeatMs: number;
}

/**
 * A Server-Sent Events response written straight to the socket: Fastify is told to stay
 * out of it (the reply is hijacked), so headers set earlier by hooks, such as CORS's, are
 * carried over by hand. Nothing is sent until the first event or open().
 */
export class SseStream {
  private readonly response: ServerResponse;
  private opened = false;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly reply: FastifyReply,
    private readonly timing: SseTiming,
  ) {
    reply.hijack();
    this.response = reply.raw;
    this.response.once('close', () => clearInterval(this.heartbeat));
  }

  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  /** Calls `listener` once the stream is over, whichever side ended it (at once if it already is). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.response.once('close', listener);
  }

  open(): void {
    if (this.opened || this.closed) return;
    this.opened = true;
    this.response.writeHead(200, { ...this.headersSetBefore(), ...SSE_HEADERS });
    this.response.write(`retry: ${this.timing.retryMs}\n\n`);
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), this.timing.heartbeatMs);
  }

  send(type: string, data: object, id?: string): void {
    this.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    this.open();
    if (!this.closed) this.response.end();
  }

  private headersSetBefore(): OutgoingHttpHeaders {
    return Object.fromEntries(Object.entries(this.reply.getHeaders()).filter(([, value]) => value !== undefined)) as OutgoingHttpHeaders;
  }

  private write(frame: string): void {
    if (this.closed) return;
    this.open();
    this.response.write(frame);
    if (this.response.writableLength > MAX_BUFFERED_BYTES) this.response.destroy();
  }
}
