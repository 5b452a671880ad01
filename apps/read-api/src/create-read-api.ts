import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, type ApiDescription } from '@letterbox/http';
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

export function createReadApi(config: ReadApiConfig, logger?: false): Promise<NestFastifyApplication> {
  return createHttpApp(ReadApiModule.forConfig(config), {
    ...READ_API,
    bodyLimit: 64 * 1024,
    classifyError: classifyDomainError,
    corsOrigins: config.CORS_ORIGINS,
    trustedProxies: config.TRUSTED_PROXIES,
    logger,
  });
}
