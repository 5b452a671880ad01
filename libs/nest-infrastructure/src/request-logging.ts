import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { rootLogger } from '@letterbox/observability';

const QUIET_PATHS = /^\/(health|metrics)(\/|$)/;

/**
 * nestjs-pino over the process's pino logger: one line per request, when it ends, with its request id (the one
 * Fastify took from X-Request-Id or made), and every line a route logs carries that id too. A client that
 * goes away is not an error; only a 5xx is.
 */
export const RequestLoggingModule = LoggerModule.forRoot({
  pinoHttp: {
    logger: rootLogger(),
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    autoLogging: { ignore: (request: IncomingMessage) => QUIET_PATHS.test(pathOf(request)) },
    // A 503 or 507 is a fault of what the app stands on, reported once per interval by the problem filter.
    customLogLevel: (_request: IncomingMessage, response: ServerResponse) =>
      response.statusCode >= 500 && response.writableFinished ? (response.statusCode === 503 || response.statusCode === 507 ? 'warn' : 'error') : 'info',
    customSuccessMessage: outcome,
    customErrorMessage: outcome,
    serializers: {
      req: (request: IncomingMessage) => ({ method: request.method, url: pathOf(request) }),
      res: (response: { statusCode?: number }) => ({ statusCode: response.statusCode }),
    },
  },
});

/** Middleware sees the URL below its mount point; the original is the request's own. */
const pathOf = (request: IncomingMessage) => ((request as IncomingMessage & { originalUrl?: string }).originalUrl ?? request.url ?? '').split('?')[0];

function outcome(request: IncomingMessage, response: ServerResponse): string {
  const what = `${request.method} ${pathOf(request)}`;
  return response.writableFinished ? `${what} ${response.statusCode}` : `${what}: the client went away`;
}
