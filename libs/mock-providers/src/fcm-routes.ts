import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { fcmBehaviourPatchSchema } from './fcm-behaviour';
import type { MockFcm } from './mock-fcm';
import { parseRequest } from './parse-request';

const messagesQuery = z
  .object({
    token: z.string().min(1).optional(),
    /** The latest this many of the matching accepted messages. */
    limit: z.coerce.number().int().min(0).max(100_000).default(100),
  })
  .strict();

/** Control of the mock FCM: its settings, what it accepted and its outcomes per token. */
export const fcmRoutes: FastifyPluginAsync<{ mockFcm: MockFcm }> = async (app, { mockFcm }) => {
  app.get('/config', async () => mockFcm.config());

  app.put('/config', async (request) => mockFcm.configure(parseRequest(fcmBehaviourPatchSchema, request.body, 'body')));

  /** `accepted` and `failed` count every message since the last reset; `items` are the latest kept. */
  app.get('/messages', async (request) => {
    const query = parseRequest(messagesQuery, request.query, 'query');
    const tokens = mockFcm.counts(query.token);
    const counts = Object.values(tokens);
    const matching = mockFcm.messages(query.token);
    return {
      accepted: counts.reduce((sum, count) => sum + count.accepted, 0),
      failed: counts.reduce((sum, count) => sum + Object.values(count.failed).reduce((all, failures) => all + failures, 0), 0),
      tokens,
      items: query.limit === 0 ? [] : matching.slice(-query.limit).map((push) => ({ ...push, acceptedAt: new Date(push.acceptedAt).toISOString() })),
    };
  });

  app.delete('/messages', async (_request, reply) => {
    mockFcm.reset();
    return reply.status(204).send();
  });
};
