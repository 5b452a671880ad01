import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import fastifyHttpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { problemBody, sendProblem } from '@letterbox/http';

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

const withoutHopByHop = (headers: IncomingHttpHeaders): IncomingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

/** What the API is told of the client: the proxies it came through, the host and scheme it asked for. */
function forwardedHeaders(request: Pick<FastifyRequest, 'headers'> & { raw: { socket: Socket } }, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { socket } = request.raw;
  const client = socket.remoteAddress ?? '';
  return {
    ...withoutHopByHop(headers),
    'x-forwarded-for': request.headers['x-forwarded-for'] ? `${request.headers['x-forwarded-for']}, ${client}` : client,
    'x-forwarded-host': request.headers.host ?? '',
    'x-forwarded-proto': 'encrypted' in socket ? 'https' : 'http',
  };
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
 * needs no CORS: `/v2` and below, by @fastify/http-proxy. Bodies stream both ways chunk by
 * chunk with backpressure (nothing parses them): a 25 MB upload, a 16 MB attachment or a raw
 * EML never sits in this process's memory, and every event of an SSE stream is written to
 * the browser as soon as it arrives.
 */
export async function registerApiProxy(app: FastifyInstance, upstreams: ApiUpstreams, options: ApiProxyOptions): Promise<void> {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };
  // A stream's socket is never reused, so it needs no keep-alive; OpenStreams bounds how many there are.
  const streamAgents = {
    'http:': new http.Agent({ keepAlive: false }),
    'https:': new https.Agent({ keepAlive: false }),
  };
  app.addHook('onClose', async () => {
    for (const agent of [...Object.values(agents), ...Object.values(streamAgents)]) agent.destroy();
  });
  const openStreams = new OpenStreams(options);

  function upstreamFailed(reply: FastifyReply, error: Error): void {
    const { method, url } = reply.request;
    options.logUpstreamError(
      `the API at ${upstreamFor(url, upstreams).origin} did not answer ${method} ${url.split('?')[0]}: ${(error.cause instanceof Error ? error.cause : error).message}`,
    );
    if (reply.raw.headersSent) reply.raw.destroy();
    else void sendProblem(reply, problemBody(502, 'the mail service is unavailable; try again shortly'));
  }

  const proxied = (prefix: string, sockets: typeof agents): FastifyHttpProxyOptions => ({
    prefix,
    // Each request goes where upstreamFor says, its path and query as the client wrote them, below the upstream's own path.
    upstream: '',
    handler: (request, reply, _dest, replyOptions) =>
      reply.from(`${upstreamFor(request.url, upstreams).pathname.replace(/\/$/, '')}${request.url.split('?')[0]}`, replyOptions),
    internalRewriteLocationHeader: false,
    disableRequestLogging: true,
    http: { agents: sockets, requestOptions: { rejectUnauthorized: true } },
    replyOptions: {
      getUpstream: (request) => upstreamFor(request.url, upstreams).origin,
      queryString: (_search, url) => url.split('?').slice(1).join('?'),
      // Uploads over a slow line and streams that stay open: no time limit, and never sent twice.
      timeout: 0,
      retryDelay: () => null,
      rewriteRequestHeaders: forwardedHeaders,
      rewriteHeaders: withoutHopByHop,
      // The server is HTTP/1 (webmail-server.ts), whatever reply-from's types allow for.
      onError: (reply, { error }) => upstreamFailed(reply as FastifyReply, error),
    },
  });

  // A path the proxy will not forward (one climbing out with `..`) is the client's fault; anything else is a failure to forward.
  function refused(error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply): void {
    if (error.statusCode && error.statusCode < 500) void sendProblem(reply, problemBody(error.statusCode, `path: ${error.message}`));
    else upstreamFailed(reply, error);
  }

  await app.register(
    async (scope) => {
      scope.setErrorHandler(refused);
      await scope.register(fastifyHttpProxy, {
        ...proxied(EVENT_STREAM_PATH, streamAgents),
        routes: ['/'],
        preHandler: (request, reply, done) => {
          const stream = openStreams.take(request.raw.socket.remoteAddress ?? '');
          if ('refused' in stream) {
            void sendProblem(reply, problemBody(429, stream.refused), { 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) });
            return;
          }
          reply.raw.once('close', stream.release);
          done();
        },
      });
      await scope.register(fastifyHttpProxy, proxied('/v2', agents));
    },
    // Its requests are the APIs' to log: here only what goes wrong.
    { logLevel: 'error' },
  );
}
