import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { confirmPassword } from '@letterbox/accounts';
import { createSqlPool, type Database, type UserReads } from '@letterbox/db';
import { BulkMailChanges, ContactQueries, MailboxChanges, MailboxQueries, MailContentReader, MailDetailQuery, MailListQuery, MailQueries, MailUpdates, ReadReceipts, RenderedContentCache, ThreadQueries } from '@letterbox/mail';
import { DATABASE, READ_ROUTING } from '@letterbox/nest-infrastructure';
import { BlobStore } from '@letterbox/storage';
import { attachmentPath } from './mails/attachment-path';
import type { ReadApiConfig } from './read-api.config';

/**
 * The mail domain's services the read API's controllers use. Reads that tolerate a
 * replica's lag take their pool from the read routing; changes, and what they check
 * first, use the primary.
 */
@Module({})
export class MailServicesModule implements OnApplicationShutdown {
  constructor(private readonly receipts: ReadReceipts) {}

  static forConfig(config: ReadApiConfig): DynamicModule {
    const providers = [
      { provide: MailboxQueries, useFactory: (reads: UserReads) => new MailboxQueries(reads), inject: [READ_ROUTING] },
      {
        provide: MailboxChanges,
        useFactory: (db: Database) => new MailboxChanges(db.sql, (userId, password) => confirmPassword(db, userId, password)),
        inject: [DATABASE],
      },
      { provide: MailQueries, useFactory: (reads: UserReads) => new MailQueries(reads), inject: [READ_ROUTING] },
      { provide: ContactQueries, useFactory: (reads: UserReads) => new ContactQueries(reads), inject: [READ_ROUTING] },
      { provide: MailListQuery, useFactory: (reads: UserReads) => new MailListQuery(reads), inject: [READ_ROUTING] },
      { provide: ThreadQueries, useFactory: (reads: UserReads) => new ThreadQueries(reads), inject: [READ_ROUTING] },
      {
        provide: MailContentReader,
        useFactory: (blobs: BlobStore) =>
          new MailContentReader(blobs, config.READ_API_RENDER_CACHE_MB > 0 ? new RenderedContentCache(config.READ_API_RENDER_CACHE_MB * 1024 * 1024) : undefined),
        inject: [BlobStore],
      },
      {
        provide: MailDetailQuery,
        useFactory: (mails: MailQueries, content: MailContentReader) => new MailDetailQuery(mails, content, attachmentPath),
        inject: [MailQueries, MailContentReader],
      },
      { provide: MailUpdates, useFactory: (db: Database) => new MailUpdates(db), inject: [DATABASE] },
      { provide: BulkMailChanges, useFactory: (db: Database) => new BulkMailChanges(db.sql), inject: [DATABASE] },
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
