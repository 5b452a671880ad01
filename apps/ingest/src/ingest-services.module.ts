import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import type { Database } from '@letterbox/db';
import { createInboundIntake, createSmtpIntake, InboundIntake, intakeSpoolFor } from '@letterbox/ingest';
import type { DnsResolve } from '@letterbox/dns';
import { DATABASE } from '@letterbox/nest-infrastructure';
import { createJobQueues, JobQueues } from '@letterbox/queue';
import { SrsAddresses } from '@letterbox/sending';
import { BlobStore } from '@letterbox/storage';
import { RequestsInProgress } from './inbound/requests-in-progress';
import type { IngestConfig } from './ingest.config';
import { SmtpListeners } from '@letterbox/mail-listeners';
import { smtpTlsSettings } from './smtp-tls-settings';
import { mailVerificationOf } from './mail-verification';

export const SMTP_INTAKE = Symbol('SMTP_INTAKE');

/** The intake both listeners share, the SMTP listener, and the queue accepted mail goes to; all closed on shutdown. */
@Module({})
export class IngestServicesModule implements OnApplicationShutdown {
  constructor(
    private readonly queues: JobQueues,
    @Inject(SMTP_INTAKE) private readonly smtp: SmtpListeners,
  ) {}

  static forConfig(config: IngestConfig, dns?: DnsResolve): DynamicModule {
    const tls = smtpTlsSettings(config);
    const providers = [
      { provide: JobQueues, useFactory: () => createJobQueues(config) },
      { provide: RequestsInProgress, useFactory: () => new RequestsInProgress(config.INGEST_HTTP_MAX_CONCURRENT_PER_CLIENT) },
      {
        provide: InboundIntake,
        useFactory: (db: Database, blobs: BlobStore, queues: JobQueues) =>
          createInboundIntake({
            sql: db.sql,
            blobs,
            references: new DatabaseBlobReferences(db.sql),
            queues,
            maxMessageBytes: config.INGEST_MAX_MESSAGE_BYTES,
            defaultQuotaBytes: config.USER_QUOTA_BYTES,
            spool: intakeSpoolFor(config),
            verification: mailVerificationOf(config, dns),
            spamRefusal: config.SPAM_REJECT
              ? { url: config.RSPAMD_URL, concurrency: config.SPAM_CHECK_CONCURRENCY, timeoutMs: config.SPAM_CHECK_TIMEOUT_MS }
              : undefined,
            srs: new SrsAddresses(config.SRS_SECRET),
          }),
        inject: [DATABASE, BlobStore, JobQueues],
      },
      {
        provide: SMTP_INTAKE,
        useFactory: (intake: InboundIntake) => {
          const smtp = createSmtpIntake(intake, {
            hostname: config.INGEST_SMTP_HOSTNAME,
            maxClients: config.INGEST_SMTP_MAX_CLIENTS,
            maxRecipients: config.INGEST_SMTP_MAX_RECIPIENTS,
            connectionsPerMinute: config.INGEST_SMTP_CONNECTIONS_PER_MINUTE,
            messagesPerMinute: config.INGEST_SMTP_MESSAGES_PER_MINUTE,
            tls: tls?.tls,
          });
          return new SmtpListeners(smtp, { implicitTls: config.INGEST_SMTPS_PORT !== undefined, certificateFiles: tls?.files, logName: 'smtp-intake' });
        },
        inject: [InboundIntake],
      },
    ];
    return { module: IngestServicesModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.smtp.close();
    await this.queues.close();
  }
}
