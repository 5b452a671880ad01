import { HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter, Catch } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** RFC 9457 problem details, with `errors` naming each invalid field. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: Array<{ field: string; message: string }>;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  423: 'Locked',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problemBody(status: number, detail: string, extra: Partial<ProblemDetails> = {}): ProblemDetails {
  return { type: 'about:blank', title: TITLES[status] ?? 'Error', status, detail, ...extra };
}

/**
 * Every error leaves as application/problem+json. HttpExceptions keep their status and
 * message (and field errors when a pipe gave them); anything else is a 500 whose cause
 * is logged, never shown.
 */
/** Maps an app's own error classes to a status and a message the client may see. */
export type ErrorClassifier = (error: unknown) => { status: number; detail: string } | undefined;

/** PostgreSQL's query_canceled: a statement ran past the request pool's statement_timeout. */
function isStatementTimeout(exception: unknown): boolean {
  return (exception as { code?: unknown } | null)?.code === '57014';
}

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  constructor(private readonly classify: ErrorClassifier = () => undefined) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = this.toProblem(exception);
    problem.instance = request.url.split('?')[0];
    if (reply.sent) return;
    void reply.status(problem.status).header('content-type', 'application/problem+json').send(problem);
  }

  private toProblem(exception: unknown): ProblemDetails {
    const classified = this.classify(exception);
    if (classified) return problemBody(classified.status, classified.detail);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'object' && response !== null && 'errors' in response) {
        const body = response as Partial<ProblemDetails>;
        return problemBody(status, body.detail ?? exception.message, { errors: body.errors, type: body.type ?? 'about:blank' });
      }
      const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
      const detail = Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
      // Fastify refuses an oversize body before any route sees it.
      if (status === HttpStatus.PAYLOAD_TOO_LARGE) return problemBody(status, `body: ${detail}`, { errors: [{ field: 'body', message: detail }] });
      return problemBody(status, detail);
    }
    if (isStatementTimeout(exception)) {
      this.logger.warn(`database statement timed out: ${(exception as Error).message}`);
      return problemBody(HttpStatus.SERVICE_UNAVAILABLE, 'the database did not answer in time; try again shortly');
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return problemBody(HttpStatus.INTERNAL_SERVER_ERROR, 'the server could not complete the request');
  }
}

