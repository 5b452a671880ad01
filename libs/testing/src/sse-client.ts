import { get, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** One Server-Sent Event as a browser's EventSource would dispatch it. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: IncomingHttpHeaders;
  /** The last `retry:` hint, once one has arrived. */
  retryMs(): number | undefined;
  /** The next event; fails when the stream ends first, or after ten seconds (a hang, not a slowness, is what that catches). */
  next(): Promise<SseEvent>;
  /** Resolves when the server has ended the stream. */
  ended(): Promise<void>;
  /** The body of an answer that is not a stream (a problem). */
  text(): Promise<string>;
  close(): void;
}

const WAIT_MS = 10_000;

/**
 * Opens `url` as EventSource would and parses the stream by the SSE rules (fields,
 * comments, blank-line dispatch). Over node:http, whose socket goes when the stream is
 * closed: fetch's pool may keep one open that holds up the server's shutdown.
 */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const request = get(url, { headers: { accept: 'text/event-stream', ...headers } });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  const streaming = response.statusCode === 200 && response.headers['content-type'] === 'text/event-stream';
  const queue: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  let retryMs: number | undefined;
  let done = false;
  let closedByUs = false;
  let failure: Error | undefined;
  const wake = () => waiters.splice(0).forEach((waiter) => waiter());

  const pump = (async () => {
    if (!streaming) return;
    response.setEncoding('utf8');
    let buffer = '';
    let pending: Partial<SseEvent> = {};
    try {
      for await (const chunk of response) {
        buffer += chunk as string;
        let newline: number;
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (pending.data !== undefined) queue.push({ id: pending.id, event: pending.event ?? 'message', data: pending.data });
            pending = {};
            wake();
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') pending.data = pending.data === undefined ? value : `${pending.data}\n${value}`;
          else if (field === 'event') pending.event = value;
          else if (field === 'id') pending.id = value;
          else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
        }
      }
    } catch (error) {
      if (!closedByUs) failure = error as Error;
    } finally {
      done = true;
      wake();
    }
  })();

  const waitFor = async <T>(ready: () => T | undefined, what: string): Promise<T> => {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const value = ready();
      if (value !== undefined) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${WAIT_MS} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };

  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    retryMs: () => retryMs,
    next: () =>
      waitFor(() => {
        const event = queue.shift();
        if (event) return event;
        if (done) throw failure ?? new Error('the stream ended before another event');
        return undefined;
      }, 'event'),
    ended: async () => {
      await waitFor(() => (done ? true : undefined), 'end of the stream');
      await pump;
      if (failure) throw failure;
    },
    text: async () => {
      let body = '';
      for await (const chunk of response) body += String(chunk);
      return body;
    },
    close: () => {
      closedByUs = true;
      request.destroy();
    },
  };
}
