import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { FastifyError, FastifyReply } from 'fastify';

/** RFC 9457 problem details, with `errors` naming each invalid field. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: Array<{ field: string; message: string }>;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** RFC 9110's name where Node's reason phrase is an older one. */
const TITLES: Record<number, string> = { 422: 'Unprocessable Content' };

export function problemBody(status: number, detail: string, extra: Partial<ProblemDetails> = {}): ProblemDetails {
  return { type: 'about:blank', title: TITLES[status] ?? STATUS_CODES[status] ?? 'Error', status, detail, ...extra };
}

/** Answers a Fastify request with the problem, its status and any headers given. */
export function sendProblem(reply: FastifyReply, problem: ProblemDetails, headers: Record<string, string> = {}): FastifyReply {
  return reply.status(problem.status).headers(headers).header('content-type', PROBLEM_CONTENT_TYPE).send(problem);
}

/** What a router refuses before any route runs (a parameter too long, broken percent-encoding): a problem naming the path. */
export function sendRouterRefusal(reply: FastifyReply, error: FastifyError): FastifyReply {
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  return sendProblem(reply, problemBody(status, `path: ${error.message}`, { errors: [{ field: 'path', message: error.message }] }));
}

/** The same on a bare Node response, for what answers before any framework (the webmail's proxy and mail frame). */
export function writeProblem(response: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(problemBody(status, detail));
  response.writeHead(status, { ...headers, 'content-type': PROBLEM_CONTENT_TYPE, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
