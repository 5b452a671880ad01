import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { confirmPassword } from '@letterbox/accounts';
import { createSqlPool, type Database } from '@letterbox/db';
import { BulkMailChanges, ContactQueries, MailboxChanges, MailboxQueries, MailContentReader, MailListQuery, MailQueries, MailUpdates, ReadReceipts, RenderedContentCache, ThreadQueries } from '@letterbox/mail';
import { DATABASE } from '@letterbox/nest-infrastructure';
import { BlobStore } from '@letterbox/storage';
import type { ReadApiConfig } from './read-api.config';

/** The mail domain's services the read API's controllers use. */
@Module({})
export class MailServicesModule implements OnApplicationShutdown {
  constructor(private readonly receipts: ReadReceipts) {}

  static forConfig(config: ReadApiConfig): DynamicModule {
    const providers = [
      { provide: MailboxQueries, useFactory: (db: Database) => new MailboxQueries(db.sql), inject: [DATABASE] },
      {
        provide: MailboxChanges,
        useFactory: (db: Database) => new MailboxChanges(db.sql, (userId, password) => confirmPassword(db, userId, password)),
        inject: [DATABASE],
      },
      { provide: MailQueries, useFactory: (db: Database) => new MailQueries(db.sql), inject: [DATABASE] },
      { provide: ContactQueries, useFactory: (db: Database) => new ContactQueries(db.sql), inject: [DATABASE] },
      {
        provide: MailListQuery,
        useFactory: (db: Database, mailboxes: MailboxQueries) => new MailListQuery(db.sql, mailboxes),
        inject: [DATABASE, MailboxQueries],
      },
      {
        provide: ThreadQueries,
        useFactory: (db: Database, mailboxes: MailboxQueries) => new ThreadQueries(db.sql, mailboxes),
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
        provide: BulkMailChanges,
        useFactory: (db: Database, mailboxes: MailboxQueries) => new BulkMailChanges(db.sql, mailboxes),
        inject: [DATABASE, MailboxQueries],
      },
      {
        provide: ReadReceipts,
        // An open is a tracking event: waiting for each one's WAL flush would bound the pixel by fsyncs.
        useFactory: () =>
          new ReadReceipts(
            createSqlPool({ url: config.DATABASE_URL, poolSize: 4, applicationName: 'letterbox-read-receipts', synchronousCommit: false }),
          ),
      },
    ];
    return { module: MailServicesModule, providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.receipts.close();
  }
}
