import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@letterbox/http';
import { classifyDomainError } from './domain-errors';
import { ReadApiModule } from './read-api.module';
import type { ReadApiConfig } from './read-api.config';

export function createReadApi(config: ReadApiConfig, logger?: false): Promise<NestFastifyApplication> {
  return createHttpApp(ReadApiModule.forConfig(config), {
    title: 'Letterbox read API',
    description: 'Mailboxes, mail lists, mail reading, raw EML, attachments, flags and read receipts.',
    bodyLimit: 64 * 1024,
    classifyError: classifyDomainError,
    corsOrigins: config.CORS_ORIGINS,
    trustedProxies: config.TRUSTED_PROXIES,
    logger,
  });
}
