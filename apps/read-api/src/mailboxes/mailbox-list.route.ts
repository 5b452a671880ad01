import { signedInUser, TokenAuthenticator } from '@letterbox/auth';
import { documentedResponse, ifNoneMatchHits, type DirectRoute } from '@letterbox/http';
import { mailboxListSchema, MailboxQueries } from '@letterbox/mail';

/**
 * GET /v2/mailboxes: the user's mailboxes with total and unread counts (none shown for a locked one). Its ETag
 * moves with every change to them; `If-None-Match` with the current one is answered 304, from one row. Every
 * screen of the webmail revalidates it after each event, so Fastify serves it beside Nest (DirectRoute).
 */
export const mailboxListRoute: DirectRoute = {
  method: 'GET',
  url: '/v2/mailboxes',
  operation: {
    operationId: 'MailboxesController_list',
    parameters: [{ name: 'If-None-Match', in: 'header', description: 'the ETag of the list held', required: false, schema: { type: 'string' } }],
    responses: {
      200: documentedResponse(mailboxListSchema),
      304: { description: 'the ETag of If-None-Match is current: the list held is the list' },
    },
    security: [{ bearer: [] }],
    tags: ['mailboxes'],
  },
  handler: (app) => {
    const authenticator = app.get(TokenAuthenticator);
    const mailboxes = app.get(MailboxQueries);
    return async (request, reply) => {
      const user = await signedInUser(authenticator, request);
      const ifNoneMatch = request.headers['if-none-match'];
      const etagOf = (version: string) => `"${user.userId}.${version}"`;
      const held = ifNoneMatch === undefined ? undefined : (version: string) => ifNoneMatchHits(ifNoneMatch, etagOf(version));
      const answer = await mailboxes.list(user.userId, held);
      // Always revalidated: the counts move with every new mail.
      void reply.header('etag', etagOf(answer.version)).header('cache-control', 'private, no-cache');
      if ('unchanged' in answer) {
        void reply.status(304).send();
        return undefined;
      }
      return { items: answer.items };
    };
  },
};
