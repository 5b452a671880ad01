import { HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter, Catch } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { infrastructureFaultOf, type InfrastructureFault } from './infrastructure-faults';
import { problemBody, sendProblem, type ProblemDetails } from './problem-response';
import { RetryLaterException } from './retry-later.exception';

/**
 * Every error leaves as application/problem+json. HttpExceptions keep their status and
 * message (and field errors when a pipe gave them); anything else is a 500 whose cause
 * is logged, never shown.
 */
/** Maps an app's own error classes to a status and a message the client may see (and when to retry). */
export type ErrorClassifier = (error: unknown) => ClassifiedError | undefined;

export interface ClassifiedError {
  status: number;
  detail: string;
  /** A problem type (PROBLEM_TYPES) when the client must act on more than the status; `about:blank` without. */
  type?: string;
  errors?: ProblemDetails['errors'];
  retryAfterSeconds?: number;
}

/** Node's and busboy's words for a request stream the client stopped sending. */
function isClientGone(exception: unknown): boolean {
  const { code, message } = (exception ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || message === 'aborted' || /closed before its end|Request aborted/i.test(String(message))
  );
}

/** How often one kind of infrastructure fault is logged while it lasts: an outage is not thousands of lines. */
const FAULT_LOG_INTERVAL_MS = 30_000;

/**
 * What an error becomes on the wire, for Nest's routes (ProblemDetailsFilter) and for those served beside Nest
 * (direct routes) alike: one instance per app, so an infrastructure fault's log lines are counted once.
 */
export class ProblemAnswers {
  private readonly logger = new Logger('http');
  private readonly faultsLoggedAt = new Map<InfrastructureFault['kind'], { at: number; since: number }>();

  constructor(private readonly classify: ErrorClassifier = () => undefined) {}

  /** Answers the request with the error's problem, unless the client went away or an answer was sent already. */
  answer(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    // A client that went away (an upload aborted, a tab closed) is no fault of ours, and no one is left to answer.
    if (request.raw.destroyed && isClientGone(exception)) {
      this.logger.debug(`${request.method} ${request.url.split('?')[0]}: the client went away`);
      return;
    }
    const { problem, retryAfterSeconds } = this.toProblem(exception);
    problem.instance = request.url.split('?')[0];
    if (reply.sent) return;
    void sendProblem(reply, problem, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
  }

  private toProblem(exception: unknown): { problem: ProblemDetails; retryAfterSeconds?: number } {
    const classified = this.classify(exception);
    if (classified) {
      const { status, detail, type, errors, retryAfterSeconds } = classified;
      return { problem: problemBody(status, detail, { ...(type && { type }), ...(errors && { errors }) }), retryAfterSeconds };
    }
    const fault = infrastructureFaultOf(exception);
    if (fault) {
      this.logFault(fault, exception);
      return { problem: problemBody(fault.status, fault.detail), retryAfterSeconds: fault.retryAfterSeconds };
    }
    return { problem: this.httpProblem(exception), retryAfterSeconds: exception instanceof RetryLaterException ? exception.retryAfterSeconds : undefined };
  }

  private httpProblem(exception: unknown): ProblemDetails {
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'object' && response !== null && ('errors' in response || 'type' in response)) {
        const body = response as Partial<ProblemDetails>;
        return problemBody(status, body.detail ?? exception.message, { errors: body.errors, type: body.type ?? 'about:blank' });
      }
      const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
      const detail = Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
      // Fastify refuses an oversize body before any route sees it.
      if (status === HttpStatus.PAYLOAD_TOO_LARGE) return problemBody(status, `body: ${detail}`, { errors: [{ field: 'body', message: detail }] });
      return problemBody(status, detail);
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return problemBody(HttpStatus.INTERNAL_SERVER_ERROR, 'the server could not complete the request');
  }

  /** The first of a kind at once, then one line per interval with how many came since. */
  private logFault(fault: InfrastructureFault, exception: unknown): void {
    const now = Date.now();
    const last = this.faultsLoggedAt.get(fault.kind);
    if (last && now - last.at < FAULT_LOG_INTERVAL_MS) {
      last.since++;
      return;
    }
    const repeated = last && last.since > 0 ? ` (${last.since} more since the last report)` : '';
    this.faultsLoggedAt.set(fault.kind, { at: now, since: 0 });
    this.logger.warn(`${fault.kind} fault answered ${fault.status}${repeated}: ${exception instanceof Error ? exception.message : String(exception)}`);
  }
}

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly answers: ProblemAnswers) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.answers.answer(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}
