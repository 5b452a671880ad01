import type { Readable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@letterbox/http';
import type { DnsResolve } from '@letterbox/dns';
import { classifyIngestError } from './domain-errors';
import type { IngestConfig } from './ingest.config';
import { IngestModule } from './ingest.module';
import { SMTP_INTAKE } from './ingest-services.module';
import type { SmtpListeners } from '@letterbox/mail-listeners';

export interface RunningIngest {
  /** Closing it stops every listener. */
  http: NestFastifyApplication;
  httpPort: number;
  smtpPort: number;
  /** The implicit-TLS port, when INGEST_SMTPS_PORT is set. */
  smtpsPort?: number;
}

/**
 * The HTTP intake for mail gateways and the SMTP listener for mail servers, in one process;
 * `dns` makes the checks' DNS lookups (the system's servers without it).
 */
export async function startIngest(config: IngestConfig, logger?: false, dns?: DnsResolve): Promise<RunningIngest> {
  const http = await createHttpApp(IngestModule.forConfig(config, dns), {
    title: 'Letterbox ingest',
    description: 'Incoming mail from trusted gateways (HTTP) and mail servers (SMTP): acknowledged once stored and queued.',
    bodyLimit: config.INGEST_MAX_MESSAGE_BYTES,
    classifyError: classifyIngestError,
    logger,
  });
  // The message streams into storage as it arrives; nothing buffers it whole.
  http
    .getHttpAdapter()
    .getInstance()
    .addContentTypeParser('message/rfc822', (_request: unknown, payload: Readable, done: (error: null, body: Readable) => void) => done(null, payload));
  await http.listen(config.INGEST_HTTP_PORT, config.INGEST_HOST);
  const smtp = await http.get<symbol, SmtpListeners>(SMTP_INTAKE).listen(config.INGEST_HOST, config.INGEST_SMTP_PORT, config.INGEST_SMTPS_PORT);
  return { http, httpPort: (http.getHttpServer().address() as { port: number }).port, ...smtp };
}
