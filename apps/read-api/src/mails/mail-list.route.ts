import { signedInUser, TokenAuthenticator } from '@letterbox/auth';
import { documentedResponse, queryParameters, ZodValidationPipe, type DirectRoute } from '@letterbox/http';
import { MailListQuery, mailPageSchema, MailQueries, type MailSummary } from '@letterbox/mail';
import { listFilterOf, mailListQuery } from './mail-request.schemas';

/**
 * GET /v2/mails: a page of the user's mail, filtered and searched (MailListQuery), with the attachments and
 * read receipts of each when `with` asks. The webmail's busiest read after the counters, so Fastify serves it
 * beside Nest (DirectRoute).
 */
export const mailListRoute: DirectRoute = {
  method: 'GET',
  url: '/v2/mails',
  operation: {
    operationId: 'MailsController_page',
    parameters: queryParameters(mailListQuery),
    responses: { 200: documentedResponse(mailPageSchema) },
    security: [{ bearer: [] }],
    tags: ['mails'],
  },
  serialized: { 200: mailPageSchema },
  handler: (app) => {
    const authenticator = app.get(TokenAuthenticator);
    const list = app.get(MailListQuery);
    const mails = app.get(MailQueries);
    const validQuery = new ZodValidationPipe(mailListQuery, 'query');
    return async (request) => {
      const user = await signedInUser(authenticator, request);
      const query = validQuery.transform(request.query);
      const page = await list.page(user.userId, {
        filter: listFilterOf(query),
        order: query.sort === 'receivedAt' ? 'asc' : 'desc',
        limit: query.limit,
        cursor: query.cursor,
      });
      await expand(mails, user.userId, page.items, query.with ?? []);
      return page;
    };
  },
};

/** The attachments and read receipts `with` asks for, each one read for the whole page. */
async function expand(mails: MailQueries, userId: number, items: MailSummary[], expansions: string[]): Promise<void> {
  if (items.length === 0 || expansions.length === 0) return;
  const ids = items.map((item) => item.id);
  const [attachments, receipts] = await Promise.all([
    expansions.includes('attachments') ? mails.attachmentsOf(userId, ids) : undefined,
    expansions.includes('receipt_confirm') ? mails.receiptsOf(userId, ids) : undefined,
  ]);
  for (const item of items) {
    if (attachments) item.attachments = attachments.get(item.id) ?? [];
    if (receipts) item.receiptConfirm = receipts.get(item.id) ?? [];
  }
}
