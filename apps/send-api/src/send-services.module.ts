import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { identitiesOf } from '@letterbox/accounts';
import { primaryOnly, type Database, type UserWrites } from '@letterbox/db';
import { createMailAnnouncer, MailAnnouncer } from '@letterbox/events';
import { DATABASE, READ_ROUTING } from '@letterbox/nest-infrastructure';
import { createJobQueues, JobQueues } from '@letterbox/queue';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { MailQueries } from '@letterbox/mail';
import { answeredMailEvent, Drafts, sendGroupCommit, SenderDirectory, SendMail, SendOutbox, SendSubmission, UserSends } from '@letterbox/sending';
import { BlobStore } from '@letterbox/storage';
import { SEND_API_CONFIG, type SendApiConfig } from './send-api.config';

/** The connection the announcer publishes live events on. */
const EVENTS_REDIS = Symbol('EVENTS_REDIS');

/** The sending domain's services and the queues the send API adds jobs to. What a send or a draft reads of the user's mail, it reads on the primary. */
@Module({})
export class SendServicesModule implements OnApplicationShutdown {
  constructor(
    private readonly queues: JobQueues,
    @Inject(EVENTS_REDIS) private readonly eventsRedis: RedisConnection,
  ) {}

  static forConfig(config: SendApiConfig): DynamicModule {
    const providers = [
      { provide: SEND_API_CONFIG, useValue: config },
      { provide: JobQueues, useFactory: () => createJobQueues(config) },
      {
        provide: SendOutbox,
        useFactory: (db: Database, queues: JobQueues) => new SendOutbox(db, queues, sendGroupCommit(config.SEND_GROUP_COMMIT_MAX)),
        inject: [DATABASE, JobQueues],
      },
      { provide: UserSends, useFactory: (db: Database, outbox: SendOutbox) => new UserSends(db, outbox), inject: [DATABASE, SendOutbox] },
      { provide: EVENTS_REDIS, useFactory: () => failFastConnection(config, 'redis events') },
      {
        provide: MailAnnouncer,
        useFactory: (redis: RedisConnection, writes: UserWrites) => createMailAnnouncer({ redis, queuePrefix: config.QUEUE_PREFIX, writes }),
        inject: [EVENTS_REDIS, READ_ROUTING],
      },
      {
        provide: SendSubmission,
        useFactory: (db: Database, blobs: BlobStore, outbox: SendOutbox, announcer: MailAnnouncer) =>
          new SendSubmission({
            db,
            blobs,
            mails: new MailQueries(primaryOnly(db.sql)),
            outbox,
            queuePrefix: config.QUEUE_PREFIX,
            onAnswered: (userId, answering) => announcer.announce([answeredMailEvent(userId, answering)]),
            groupLimits: sendGroupCommit(config.SEND_GROUP_COMMIT_MAX),
            defaultQuotaBytes: config.USER_QUOTA_BYTES,
          }),
        inject: [DATABASE, BlobStore, SendOutbox, MailAnnouncer],
      },
      {
        provide: Drafts,
        useFactory: (db: Database, blobs: BlobStore, submission: SendSubmission, senders: SenderDirectory) =>
          new Drafts(db, blobs, new MailQueries(primaryOnly(db.sql)), submission, senders, config.USER_QUOTA_BYTES),
        inject: [DATABASE, BlobStore, SendSubmission, SenderDirectory],
      },
      {
        provide: SenderDirectory,
        useFactory: (db: Database) => new SenderDirectory((userIds) => identitiesOf(db, userIds), sendGroupCommit(config.SEND_GROUP_COMMIT_MAX)),
        inject: [DATABASE],
      },
      {
        provide: SendMail,
        useFactory: (senders: SenderDirectory, submission: SendSubmission) => new SendMail(senders, submission),
        inject: [SenderDirectory, SendSubmission],
      },
    ];
    return { module: SendServicesModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
    this.eventsRedis.disconnect();
  }
}
