import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { identitiesOf } from '@letterbox/accounts';
import { primaryOnly, type Database, type UserWrites } from '@letterbox/db';
import { DATABASE, READ_ROUTING } from '@letterbox/nest-infrastructure';
import { createJobQueues, JobQueues } from '@letterbox/queue';
import { failFastConnection } from '@letterbox/redis';
import { MailQueries } from '@letterbox/mail';
import { Drafts, sendGroupCommit, SenderDirectory, SendMail, SendOutbox, SendSubmission, UserSends } from '@letterbox/sending';
import { BlobStore } from '@letterbox/storage';
import { AnsweredAnnouncer } from './answered-announcer';
import { SEND_API_CONFIG, type SendApiConfig } from './send-api.config';

/** The sending domain's services and the queues the send API adds jobs to. What a send or a draft reads of the user's mail, it reads on the primary. */
@Module({})
export class SendServicesModule implements OnApplicationShutdown {
  constructor(
    private readonly queues: JobQueues,
    private readonly answered: AnsweredAnnouncer,
  ) {}

  static forConfig(config: SendApiConfig): DynamicModule {
    const providers = [
      { provide: SEND_API_CONFIG, useValue: config },
      { provide: JobQueues, useFactory: () => createJobQueues(config) },
      { provide: SendOutbox, useFactory: (db: Database, queues: JobQueues) => new SendOutbox(db, queues, sendGroupCommit(config.SEND_GROUP_COMMIT_MAX)), inject: [DATABASE, JobQueues] },
      { provide: UserSends, useFactory: (db: Database, outbox: SendOutbox) => new UserSends(db, outbox), inject: [DATABASE, SendOutbox] },
      {
        provide: AnsweredAnnouncer,
        useFactory: (writes: UserWrites) => new AnsweredAnnouncer(failFastConnection(config, 'redis events'), config.QUEUE_PREFIX, writes),
        inject: [READ_ROUTING],
      },
      {
        provide: SendSubmission,
        useFactory: (db: Database, blobs: BlobStore, outbox: SendOutbox, answered: AnsweredAnnouncer) =>
          new SendSubmission({
            db,
            blobs,
            mails: new MailQueries(primaryOnly(db.sql)),
            outbox,
            queuePrefix: config.QUEUE_PREFIX,
            onAnswered: (userId, answering) => answered.announce(userId, answering),
            groupLimits: sendGroupCommit(config.SEND_GROUP_COMMIT_MAX),
          }),
        inject: [DATABASE, BlobStore, SendOutbox, AnsweredAnnouncer],
      },
      {
        provide: Drafts,
        useFactory: (db: Database, blobs: BlobStore, submission: SendSubmission, senders: SenderDirectory) =>
          new Drafts(db, blobs, new MailQueries(primaryOnly(db.sql)), submission, senders),
        inject: [DATABASE, BlobStore, SendSubmission, SenderDirectory],
      },
      {
        provide: SenderDirectory,
        useFactory: (db: Database) => new SenderDirectory((userIds) => identitiesOf(db, userIds), sendGroupCommit(config.SEND_GROUP_COMMIT_MAX)),
        inject: [DATABASE],
      },
      { provide: SendMail, useFactory: (senders: SenderDirectory, submission: SendSubmission) => new SendMail(senders, submission), inject: [SenderDirectory, SendSubmission] },
    ];
    return { module: SendServicesModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
    this.answered.close();
  }
}
