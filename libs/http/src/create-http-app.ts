import type { IncomingMessage } from 'node:http';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { httpRequestDuration, loggerFor, requestIdFrom, withRequestId } from '@letterbox/observability';
import { compressAnswers } from './compressed-answers';
import { answerCrossOrigin } from './cross-origin-answers';
import { useJsonBodyParser } from './json-body-parser';
import { openApiDocument, type ApiDescription } from './openapi-document';
import { serveDirectly } from './direct-routes';
import { ProblemAnswers, ProblemDetailsFilter, type ErrorClassifier } from './problem-details';
import { sendRouterRefusal } from './problem-response';

export interface HttpAppOptions extends ApiDescription {
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** false: no Nest logs at all (tests that expect errors); otherwise pino's JSON lines. */
  logger?: false;
  /** The app's own errors that are the client's fault, as problem statuses. */
  classifyError?: ErrorClassifier;
  /** Browser origins allowed to call the API; none: no CORS at all. */
  corsOrigins?: string[];
  /** Proxies whose X-Forwarded-For is believed; by default only loopback (the webmail's proxy on this machine). */
  trustedProxies?: string[];
}

/** Pages for people, not for scripts of other sites: no CORS, whatever the origin. */
const NO_CORS_PATHS = /^\/admin(\/|$)/;

/**
 * A NestJS app on Fastify (about five times the throughput of Express here), with every
 * error as problem+json and OpenAPI served at /docs.
 */
export async function createHttpApp(module: Type<unknown> | DynamicModule, options: HttpAppOptions): Promise<NestFastifyApplication> {
  // Path parameters such as FCM registration tokens run to a few hundred characters; the router's default limit is 100.
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustedProxies ?? ['loopback'],
    routerOptions: { maxParamLength: 1024 },
    // The client's X-Request-Id when it is a sane one, else a new id.
    requestIdHeader: false,
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => void sendRouterRefusal(reply, error),
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers['x-request-id']),
  });
  useJsonBodyParser(adapter.getInstance());
  observeRequests(adapter.getInstance());
  compressAnswers(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: options.logger,
    bufferLogs: options.logger !== false,
    // Ours, registered below, names the field of a malformed body.
    bodyParser: false,
  });
  if (options.logger !== false) app.useLogger(app.get(PinoNestLogger));
  const problems = new ProblemAnswers(options.classifyError);
  app.useGlobalFilters(new ProblemDetailsFilter(problems));
  app.enableShutdownHooks();
  const origins = options.corsOrigins ?? [];
  if (origins.length > 0) {
    answerCrossOrigin(adapter.getInstance(), { origins, exposedHeaders: ['Location', 'Retry-After', 'ETag', 'X-Request-Id'], refusedPaths: NO_CORS_PATHS });
  }
  // After CORS: its hooks are the app's, and apply to these routes too.
  serveDirectly(adapter.getInstance(), app, options.directRoutes ?? [], problems);
  SwaggerModule.setup('docs', app, openApiDocument(app, options), { jsonDocumentUrl: 'docs/openapi.json' });
  return app;
}

/** Probes and scrapes: answered many times a minute, worth no line each. */
const QUIET_PATHS = /^\/(health|metrics)(\/|$)/;

/** A request of a route that logs only failures and slow requests (direct routes) is logged past this. */
const SLOW_REQUEST_MS = 1000;

/**
 * Every request: its id in the response (X-Request-Id) and, from the handler on, in every log line and queued
 * job (the handler runs inside the request's context); one log line when it ends (info; a 5xx error, a
 * 503/507 a warning: those faults are reported by the problem filter), for a direct route only when it failed
 * (4xx, 5xx) or was slow; its duration by route template and status. A client that goes away is an info line, not an error.
 */
function observeRequests(fastify: FastifyInstance): void {
  const logger = loggerFor('http');
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('preHandler', (request, _reply, done) => withRequestId(request.id, done));
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const status = reply.statusCode;
    const unremarkable = request.routeOptions.config.requestLog === 'failures-and-slow' && status < 400 && reply.elapsedTime < SLOW_REQUEST_MS;
    if (!unremarkable && !QUIET_PATHS.test(request.url)) {
      const level = status >= 500 ? (status === 503 || status === 507 ? 'warn' : 'error') : 'info';
      logger[level]({ requestId: request.id, route, status, ms: Math.round(reply.elapsedTime) }, `${request.method} ${request.url.split('?')[0]} ${status}`);
    }
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    logger.info({ requestId: request.id }, `${request.method} ${request.url.split('?')[0]}: the client went away`);
    done();
  });
}
