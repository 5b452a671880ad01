import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Database } from '@letterbox/db';
import { DATABASE } from '@letterbox/nest-infrastructure';
import { JobQueues, producerConnection } from '@letterbox/queue';
import { SendOutbox, UserSends } from '@letterbox/sending';
import { SEND_API_CONFIG, type SendApiConfig } from './send-api.config';

/** The sending domain's services and the queues the send API adds jobs to. */
@Module({})
export class SendServicesModule implements OnApplicationShutdown {
  constructor(private readonly queues: JobQueues) {}

  static forConfig(config: SendApiConfig): DynamicModule {
    const providers = [
      { provide: SEND_API_CONFIG, useValue: config },
      { provide: JobQueues, useFactory: () => new JobQueues(producerConnection(config.REDIS_URL), config.QUEUE_PREFIX) },
      { provide: SendOutbox, useFactory: (db: Database, queues: JobQueues) => new SendOutbox(db, queues), inject: [DATABASE, JobQueues] },
      { provide: UserSends, useFactory: (db: Database) => new UserSends(db), inject: [DATABASE] },
    ];
    return { module: SendServicesModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
  }
}
