import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, useTextBodyParser, type ApiDescription } from '@letterbox/http';
import { MAX_SCRIPT_BYTES } from '@letterbox/sieve';
import { classifyDomainError } from './domain-errors';
import { mailboxListRoute } from './mailboxes/mailbox-list.route';
import { mailListRoute } from './mails/mail-list.route';
import { ReadApiModule } from './read-api.module';
import type { ReadApiConfig } from './read-api.config';

export const READ_API: ApiDescription = {
  title: 'Letterbox read API',
  description: 'Mailboxes, mail lists, mail reading, raw EML, attachments, flags and read receipts.',
  directRoutes: [mailboxListRoute, mailListRoute],
};

export async function createReadApi(config: ReadApiConfig, logger?: false): Promise<NestFastifyApplication> {
  const app = await createHttpApp(ReadApiModule.forConfig(config), {
    ...READ_API,
    bodyLimit: 64 * 1024,
    classifyError: classifyDomainError,
    corsOrigins: config.CORS_ORIGINS,
    trustedProxies: config.TRUSTED_PROXIES,
    logger,
  });
  // A Sieve script (PUT /v2/sieve) is text; past twice its limit it is not read at all, below that refused by name.
  useTextBodyParser(app.getHttpAdapter().getInstance(), 2 * MAX_SCRIPT_BYTES);
  return app;
}
