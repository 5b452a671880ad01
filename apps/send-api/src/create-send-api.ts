import fastifyMultipart from '@fastify/multipart';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FailedAttemptLimiter } from '@letterbox/auth';
import { createHttpApp, type ApiDescription } from '@letterbox/http';
import { JobQueues } from '@letterbox/queue';
import { mountQueueDashboard } from './admin/queue-dashboard';
import { classifySendError } from './domain-errors';
import { SendApiModule } from './send-api.module';
import type { SendApiConfig } from './send-api.config';

export const SEND_API: ApiDescription = {
  title: 'Letterbox send API',
  description: 'Send mail: recorded and queued in milliseconds, delivered by the delivery worker. Queue dashboard at /admin/queues.',
};

export async function createSendApi(config: SendApiConfig, logger?: false): Promise<NestFastifyApplication> {
  const app = await createHttpApp(SendApiModule.forConfig(config), {
    ...SEND_API,
    // A JSON send carries its bodies; files come as multipart, limited per send.
    bodyLimit: 4 * 1024 * 1024,
    classifyError: classifySendError,
    corsOrigins: config.CORS_ORIGINS,
    trustedProxies: config.TRUSTED_PROXIES,
    logger,
  });
  await app.register(fastifyMultipart, { limits: { fileSize: config.SEND_MAX_ATTACHMENT_BYTES, files: 20, fields: 50, fieldSize: 2 * 1024 * 1024 } });
  await mountQueueDashboard(app, app.get(JobQueues), { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD }, app.get(FailedAttemptLimiter));
  return app;
}
