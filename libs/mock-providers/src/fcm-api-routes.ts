import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { fcmErrorBody, type GoogleErrorBody } from './fcm-errors';
import type { MockFcm } from './mock-fcm';
import { loggerFor } from '@letterbox/observability';

const logger = loggerFor('mock-fcm');

const sendRequest = z.object({
  message: z.looseObject({
    token: z.string({ message: 'the mock sends to a registration token only' }).min(1),
    notification: z.looseObject({ title: z.string().optional(), body: z.string().optional() }).optional(),
    data: z.record(z.string(), z.string()).optional(),
  }),
  validate_only: z.boolean().optional(),
});

const invalidRequest = (message: string): GoogleErrorBody => ({
  error: { code: 400, message, status: 'INVALID_ARGUMENT', details: [] },
});

/**
 * FCM's HTTP v1 send API as firebase-admin calls it: `POST /v1/projects/:project/messages:send`
 * with a bearer token, answered `{ name }` or with an error in Google's format. Every
 * error here, even Fastify's own (a body that is not JSON), is in that format.
 */
export const fcmApiRoutes: FastifyPluginAsync<{ mockFcm: MockFcm }> = async (app, { mockFcm }) => {
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    // Fastify's own refusals (a body that is not JSON, too large) are the client's fault.
    if (error.statusCode && error.statusCode < 500) return reply.status(400).send(invalidRequest(`Invalid JSON payload received. ${error.message}`));
    logger.error({ err: error }, 'the mock FCM failed a request');
    return reply.status(500).send(fcmErrorBody('INTERNAL'));
  });

  // `::` is find-my-way's escaped colon: the path is literally `messages:send`.
  app.post<{ Params: { project: string } }>('/v1/projects/:project/messages::send', async (request, reply) => {
    if (!/^Bearer \S+$/.test(request.headers.authorization ?? '')) {
      return reply.status(401).send({
        error: { code: 401, message: 'Request is missing required authentication credential.', status: 'UNAUTHENTICATED', details: [] },
      });
    }
    const parsed = sendRequest.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reply.status(400).send(invalidRequest(`Invalid value at '${issue.path.join('.') || 'body'}': ${issue.message}`));
    }
    const answer = await mockFcm.send(request.params.project, parsed.data.message, parsed.data.validate_only === true);
    return reply.status(answer.httpStatus).send(answer.body);
  });
};
