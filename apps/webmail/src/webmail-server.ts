import { existsSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { problemBody, sendProblem, sendRouterRefusal } from '@letterbox/http';
import { readiness, type DependencyCheck } from '@letterbox/observability';
import { isApiPath, registerApiProxy, type EventStreamLimits } from './api-proxy';
import { handleMailFrame } from './mail-frame';
import { COMMON_HEADERS, HSTS, SPA_CSP } from './security-headers';

export interface WebmailServerOptions {
  staticDir: string;
  readApiUrl: URL;
  sendApiUrl: URL;
  eventStreams: EventStreamLimits;
  /** PEM certificate (with its chain) and key: HTTPS, every answer with HSTS. None: plain HTTP (behind a TLS proxy, or the demo). */
  tls?: { cert: string; key: string };
  /** Where Fastify logs (the process's pino logger); none: silent. */
  loggerInstance?: FastifyBaseLogger;
}

/** The webmail is ready when both APIs it fronts answer. */
const upstreamCheck =
  (url: URL): DependencyCheck =>
  async () => {
    const response = await fetch(new URL('/health/live', url), { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url.origin} answered ${response.status}`);
  };

/** The webmail's readiness: both APIs answer. Its /health/ready and its ops listener's ask the same. */
export function upstreamChecks(options: Pick<WebmailServerOptions, 'readApiUrl' | 'sendApiUrl'>): Record<string, DependencyCheck> {
  return { 'read-api': upstreamCheck(options.readApiUrl), 'send-api': upstreamCheck(options.sendApiUrl) };
}

/**
 * The webmail: the built SPA with a strict policy, the mail frame, and the APIs under the
 * same origin (their bodies streamed, never parsed or buffered here).
 */
export async function createWebmailServer(options: WebmailServerOptions): Promise<FastifyInstance> {
  if (!existsSync(path.join(options.staticDir, 'index.html'))) {
    throw new Error(`the webmail is not built: no index.html in ${options.staticDir} (run vite build --config apps/webmail/vite.config.mts)`);
  }
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    // A path the router cannot read never reaches the proxy: it is refused as the APIs themselves refuse it.
    frameworkErrors: (error, _request, reply) => void sendRouterRefusal(reply, error),
    serverFactory: (handler) => {
      const route: http.RequestListener = (request, response) => {
        if (options.tls) response.setHeader('strict-transport-security', HSTS);
        if (request.url === '/mail-frame') return handleMailFrame(request, response);
        handler(request, response);
      };
      const server = options.tls ? https.createServer(options.tls, route) : http.createServer(route);
      // Uploads of 25 MB over a slow line, and SSE streams that stay open: no request timeout.
      server.requestTimeout = 0;
      return server;
    },
  });
  // The SPA's policy: the APIs' answers pass as the APIs wrote them.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url)) return payload;
    for (const [name, value] of Object.entries(COMMON_HEADERS)) reply.header(name, value);
    reply.header('content-security-policy', SPA_CSP);
    return payload;
  });
  await registerApiProxy(
    app,
    { readApi: options.readApiUrl, sendApi: options.sendApiUrl },
    { ...options.eventStreams, logUpstreamError: (message) => app.log.warn(message) },
  );

  await app.register(fastifyStatic, {
    root: options.staticDir,
    index: 'index.html',
    wildcard: true,
    // The build's Brotli and gzip copies (apps/webmail/precompress.mts), as the browser accepts them.
    preCompressed: true,
    // Source maps stay with the build: they would publish the source.
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    setHeaders: (response, file) => {
      const hashed = file.includes(`${path.sep}assets${path.sep}`);
      response.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  // The root by name: @fastify/static's preCompressed lookup does not find a folder's index for a client that accepts gzip or br.
  app.get('/', (_request, reply) => reply.sendFile('index.html'));
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/health/live', async () => ({ status: 'ok' }));
  const checks = upstreamChecks(options);
  app.get('/health/ready', async (_request, reply) => {
    const report = await readiness(checks);
    return reply
      .status(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
  // A reload on any SPA address gets the app; a missing file stays a 404.
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !path.extname(request.url.split('?')[0]) && String(request.headers.accept ?? '').includes('text/html');
    if (wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return sendProblem(reply, problemBody(404, `no ${request.url}`));
  });

  return app;
}
