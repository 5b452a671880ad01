import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';

export interface ApiUpstreams {
  readApi: URL;
  sendApi: URL;
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

export const isApiPath = (url: string | undefined): boolean => url !== undefined && (url === '/v2' || url.startsWith('/v2/') || url.startsWith('/v2?'));

/** `/v2/mails/send` and below belong to the send API; every other `/v2/` route to the read API. */
export function upstreamFor(url: string, upstreams: ApiUpstreams): URL {
  const pathname = url.split('?')[0];
  return pathname === '/v2/mails/send' || pathname.startsWith('/v2/mails/send/') ? upstreams.sendApi : upstreams.readApi;
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

function badGateway(response: ServerResponse, detail: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail });
  response.writeHead(502, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/**
 * A reverse proxy for the APIs, so the SPA and the APIs share one origin and the browser
 * needs no CORS. Bodies stream both ways chunk by chunk with backpressure: a 25 MB upload,
 * a 16 MB attachment or a raw EML never sits in this process's memory, and every event of
 * an SSE stream is written to the browser as soon as it arrives.
 */
export function createApiProxy(upstreams: ApiUpstreams) {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/';
    const target = upstreamFor(url, upstreams);
    const client = target.protocol === 'https:' ? https : http;
    const outgoing = client.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: request.method,
      path: `${target.pathname.replace(/\/$/, '')}${url}`,
      headers: forwardedHeaders(request, target),
      agent: agents[target.protocol as 'http:' | 'https:'],
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
    outgoing.on('error', (error) => badGateway(response, `the API at ${target.origin} did not answer: ${error.message}`));

    // The browser went away (a closed tab, an aborted download, an EventSource closed): stop the upstream too.
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });

    pipeline(request, outgoing, (error) => {
      if (error && !response.headersSent) badGateway(response, `the request body could not be forwarded: ${error.message}`);
    });
  }

  return {
    handle,
    close(): void {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
