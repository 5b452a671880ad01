import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { MockSmtp } from './mock-smtp';
import { parseRequest } from './parse-request';
import { receivedMailView } from './received-mail-view';
import { smtpBehaviourPatchSchema } from './smtp-behaviour';

const messagesQuery = z.object({
  to: z.string().min(1).optional(),
  account: z.string().min(1).optional(),
  /** The latest this many of the matching mails. */
  limit: z.coerce.number().int().min(1).max(10_000).default(100),
  raw: z.enum(['0', '1']).default('0'),
});

/** Control of the mock SMTP provider: its settings, what it received and its counts per account. */
export const smtpRoutes: FastifyPluginAsync<{ mockSmtp: MockSmtp }> = async (app, { mockSmtp }) => {
  app.get('/config', async () => mockSmtp.config());

  app.put('/config', async (request) => mockSmtp.configure(parseRequest(smtpBehaviourPatchSchema, request.body, 'body')));

  app.get('/accounts', async () => ({ accounts: mockSmtp.counts() }));

  app.get('/messages', async (request) => {
    const query = parseRequest(messagesQuery, request.query, 'query');
    const matching = mockSmtp.messages({ to: query.to, account: query.account });
    return {
      total: matching.length,
      items: matching.slice(-query.limit).map((mail) => receivedMailView(mail, query.raw === '1')),
    };
  });

  app.delete('/messages', async (_request, reply) => {
    mockSmtp.reset();
    return reply.status(204).send();
  });
};
