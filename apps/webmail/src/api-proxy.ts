import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';

export interface ApiUpstreams {
  readApi: URL;
  sendApi: URL;
}

/**
 * Event streams hold a socket each for as long as a tab is open: they get sockets of their
 * own, never the pool every other request shares, and only so many at once.
 */
export interface EventStreamLimits {
  /** Streams open through this proxy at once. */
  maxStreams: number;
  /** Streams one client address may hold open at once. */
  maxStreamsPerClient: number;
}

export interface ApiProxyOptions extends EventStreamLimits {
  /** Where the reason of an upstream failure goes: the operator's log, never the client. */
  logUpstreamError: (message: string) => void;
}

/** Headers that belong to one connection, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const EVENT_STREAM_PATH = '/v2/events';
const SEND_API_ROUTES = ['/v2/mails/send', '/v2/drafts'];
/** How soon a client refused a stream may try again. */
const STREAM_RETRY_AFTER_SECONDS = 10;

export const isApiPath = (url: string | undefined): boolean => url !== undefined && (url === '/v2' || url.startsWith('/v2/') || url.startsWith('/v2?'));

/** `/v2/mails/send` and `/v2/drafts` and below belong to the send API; every other `/v2/` route to the read API. */
export function upstreamFor(url: string, upstreams: ApiUpstreams): URL {
  const pathname = url.split('?')[0];
  const toSendApi = SEND_API_ROUTES.some((route) => pathname === route || pathname.startsWith(`${route}/`));
  return toSendApi ? upstreams.sendApi : upstreams.readApi;
}

function forwardedHeaders(request: IncomingMessage, target: URL): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  const named = new Set(
    (request.headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    headers[name] = value;
  }
  const client = request.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = request.headers['x-forwarded-for'] ? `${request.headers['x-forwarded-for']}, ${client}` : client;
  headers['x-forwarded-host'] = request.headers.host ?? '';
  headers['x-forwarded-proto'] = 'encrypted' in request.socket ? 'https' : 'http';
  headers.host = target.host;
  return headers;
}

function responseHeaders(upstream: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers[name] = value;
  }
  return headers;
}

function problem(response: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ type: 'about:blank', title: http.STATUS_CODES[status], status, detail });
  response.writeHead(status, { ...headers, 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** Counts open streams, in all and per client address. */
class OpenStreams {
  private total = 0;
  private readonly perClient = new Map<string, number>();

  constructor(private readonly limits: EventStreamLimits) {}

  /** Counts a stream of the client's, or answers why not. */
  take(client: string): { release: () => void } | { refused: string } {
    const ofClient = this.perClient.get(client) ?? 0;
    if (this.total >= this.limits.maxStreams) return { refused: 'the server has as many live update streams open as it allows; try again shortly' };
    if (ofClient >= this.limits.maxStreamsPerClient) return { refused: `this address has ${ofClient} live update streams open, the most allowed` };
    this.total++;
    this.perClient.set(client, ofClient + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total--;
        const left = (this.perClient.get(client) ?? 1) - 1;
        if (left === 0) this.perClient.delete(client);
        else this.perClient.set(client, left);
      },
    };
  }
}

/**
 * A reverse proxy for the APIs, so the SPA and the APIs share one origin and the browser
 * needs no CORS. Bodies stream both ways chunk by chunk with backpressure: a 25 MB upload,
 * a 16 MB attachment or a raw EML never sits in this process's memory, and every event of
 * an SSE stream is written to the browser as soon as it arrives.
 */
export function createApiProxy(upstreams: ApiUpstreams, options: ApiProxyOptions) {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };
  // A stream's socket is never reused, so it needs no keep-alive; OpenStreams bounds how many there are.
  const streamAgents = {
    'http:': new http.Agent({ keepAlive: false }),
    'https:': new https.Agent({ keepAlive: false }),
  };
  const openStreams = new OpenStreams(options);

  function upstreamFailed(response: ServerResponse, reason: string): void {
    options.logUpstreamError(reason);
    problem(response, 502, 'the mail service is unavailable; try again shortly');
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/';
    const target = upstreamFor(url, upstreams);
    const isStream = url.split('?')[0] === EVENT_STREAM_PATH;
    if (isStream) {
      const stream = openStreams.take(request.socket.remoteAddress ?? '');
      if ('refused' in stream) return problem(response, 429, stream.refused, { 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) });
      response.once('close', stream.release);
    }
    const client = target.protocol === 'https:' ? https : http;
    const outgoing = client.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: request.method,
      path: `${target.pathname.replace(/\/$/, '')}${url}`,
      headers: forwardedHeaders(request, target),
      agent: (isStream ? streamAgents : agents)[target.protocol as 'http:' | 'https:'],
    });

    outgoing.on('response', (upstream) => {
      const headers = responseHeaders(upstream);
      response.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
      const streaming = String(upstream.headers['content-type'] ?? '').startsWith('text/event-stream');
      if (streaming) {
        // Events are small and must not wait for Nagle or a fuller packet.
        response.socket?.setNoDelay(true);
        response.flushHeaders();
      }
      pipeline(upstream, response, (error) => {
        if (error) upstream.destroy();
      });
    });
    outgoing.on('error', (error) => upstreamFailed(response, `the API at ${target.origin} did not answer ${request.method} ${url.split('?')[0]}: ${error.message}`));

    // The browser went away (a closed tab, an aborted download, an EventSource closed): stop the upstream too.
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });

    pipeline(request, outgoing, (error) => {
      if (error && !response.headersSent) upstreamFailed(response, `the request body of ${request.method} ${url.split('?')[0]} could not be forwarded: ${error.message}`);
    });
  }

  return {
    handle,
    close(): void {
      for (const agent of [...Object.values(agents), ...Object.values(streamAgents)]) agent.destroy();
    },
  };
}
