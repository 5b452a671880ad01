import { Global, Inject, Module, type OnApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { AccessTokens } from '@letterbox/auth';
import { createDatabase, createSqlPool, type Database } from '@letterbox/db';
import { MailboxQueries, MailContentReader, MailListQuery, MailQueries, MailUpdates, ReadReceipts, RenderedContentCache } from '@letterbox/mail';
import { BlobStore } from '@letterbox/storage';
import { READ_API_CONFIG, type ReadApiConfig } from './read-api.config';

export const DATABASE = Symbol('DATABASE');

/** Connections and domain services, built once from the validated configuration. */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly receipts: ReadReceipts,
  ) {}

  static forConfig(config: ReadApiConfig): DynamicModule {
    const providers = [
      { provide: READ_API_CONFIG, useValue: config },
      {
        provide: DATABASE,
        useFactory: () =>
          createDatabase({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-read-api' }),
      },
      { provide: BlobStore, useFactory: () => new BlobStore(config.STORAGE_DIR, config.STORAGE_COMPRESS) },
      { provide: AccessTokens, useFactory: () => new AccessTokens(config.AUTH_TOKEN_SECRET, config.AUTH_TOKEN_TTL_SECONDS) },
      { provide: MailboxQueries, useFactory: (db: Database) => new MailboxQueries(db.sql), inject: [DATABASE] },
      { provide: MailQueries, useFactory: (db: Database) => new MailQueries(db.sql), inject: [DATABASE] },
      {
        provide: MailListQuery,
        useFactory: (db: Database, mailboxes: MailboxQueries) => new MailListQuery(db.sql, mailboxes),
        inject: [DATABASE, MailboxQueries],
      },
      {
        provide: MailContentReader,
        useFactory: (blobs: BlobStore) =>
          new MailContentReader(blobs, config.READ_API_RENDER_CACHE_MB > 0 ? new RenderedContentCache(config.READ_API_RENDER_CACHE_MB * 1024 * 1024) : undefined),
        inject: [BlobStore],
      },
      { provide: MailUpdates, useFactory: (db: Database) => new MailUpdates(db), inject: [DATABASE] },
      {
        provide: ReadReceipts,
        // An open is a tracking event: waiting for each one's WAL flush would bound the pixel by fsyncs.
        useFactory: () =>
          new ReadReceipts(
            createSqlPool({ url: config.DATABASE_URL, poolSize: 4, applicationName: 'letterbox-read-receipts', synchronousCommit: false }),
          ),
      },
    ];
    return { module: InfrastructureModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.database.close(), this.receipts.close()]);
  }
}
