import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { AccessTokens } from '@letterbox/auth';
import { createDatabase, type Database } from '@letterbox/db';
import { JobQueues, producerConnection } from '@letterbox/queue';
import { SendOutbox, UserSends } from '@letterbox/sending';
import { BlobStore } from '@letterbox/storage';
import { SEND_API_CONFIG, type SendApiConfig } from './send-api.config';

export const DATABASE = Symbol('DATABASE');

/** Connections and domain services, built once from the validated configuration. */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly queues: JobQueues,
  ) {}

  static forConfig(config: SendApiConfig): DynamicModule {
    const providers = [
      { provide: SEND_API_CONFIG, useValue: config },
      {
        provide: DATABASE,
        useFactory: () =>
          createDatabase({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-send-api' }),
      },
      { provide: BlobStore, useFactory: () => new BlobStore(config.STORAGE_DIR, config.STORAGE_COMPRESS) },
      { provide: AccessTokens, useFactory: () => new AccessTokens(config.AUTH_TOKEN_SECRET, config.AUTH_TOKEN_TTL_SECONDS) },
      { provide: JobQueues, useFactory: () => new JobQueues(producerConnection(config.REDIS_URL), config.QUEUE_PREFIX) },
      { provide: SendOutbox, useFactory: (db: Database, queues: JobQueues) => new SendOutbox(db, queues), inject: [DATABASE, JobQueues] },
      { provide: UserSends, useFactory: (db: Database) => new UserSends(db), inject: [DATABASE] },
    ];
    return { module: InfrastructureModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
    await this.database.close();
  }
}
