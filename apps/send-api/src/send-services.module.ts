import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { primaryOnly, type Database, type UserWrites } from '@letterbox/db';
import { eventCommandConnection } from '@letterbox/events';
import { DATABASE, READ_ROUTING } from '@letterbox/nest-infrastructure';
import { JobQueues, producerConnection } from '@letterbox/queue';
import { MailQueries } from '@letterbox/mail';
import { Drafts, sendGroupCommit, SendOutbox, SendSubmission, UserSends } from '@letterbox/sending';
import { BlobStore } from '@letterbox/storage';
import { AnsweredAnnouncer } from './answered-announcer';
import { SEND_API_CONFIG, type SendApiConfig } from './send-api.config';
import { SenderDirectory } from './sends/sender-directory';

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
      { provide: JobQueues, useFactory: () => new JobQueues(producerConnection(config), config.QUEUE_PREFIX) },
      { provide: SendOutbox, useFactory: (db: Database, queues: JobQueues) => new SendOutbox(db, queues, sendGroupCommit(config.SEND_GROUP_COMMIT_MAX)), inject: [DATABASE, JobQueues] },
      { provide: UserSends, useFactory: (db: Database) => new UserSends(db), inject: [DATABASE] },
      {
        provide: AnsweredAnnouncer,
        useFactory: (writes: UserWrites) => new AnsweredAnnouncer(eventCommandConnection(config), config.QUEUE_PREFIX, writes),
        inject: [READ_ROUTING],
      },
      {
        provide: SendSubmission,
        useFactory: (db: Database, blobs: BlobStore, outbox: SendOutbox, answered: AnsweredAnnouncer) =>
          new SendSubmission(
            db,
            blobs,
            new MailQueries(primaryOnly(db.sql)),
            outbox,
            config.QUEUE_PREFIX,
            (userId, answering) => answered.announce(userId, answering),
            sendGroupCommit(config.SEND_GROUP_COMMIT_MAX),
          ),
        inject: [DATABASE, BlobStore, SendOutbox, AnsweredAnnouncer],
      },
      {
        provide: Drafts,
        useFactory: (db: Database, blobs: BlobStore, submission: SendSubmission) => new Drafts(db, blobs, new MailQueries(primaryOnly(db.sql)), submission),
        inject: [DATABASE, BlobStore, SendSubmission],
      },
      SenderDirectory,
    ];
    return { module: SendServicesModule, providers, exports: providers.map((provider) => ('provide' in provider ? provider.provide : provider)) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
    this.answered.close();
  }
}
