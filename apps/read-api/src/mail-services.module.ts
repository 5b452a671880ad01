import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { confirmPassword, IdentitySettings, ownAddressesOf } from '@letterbox/accounts';
import { createSqlPool, type Database, type UserReads } from '@letterbox/db';
import { MailAnnouncer } from '@letterbox/events';
import {
  BulkChanges,
  BulkMailChanges,
  ChangeMail,
  ReportSpam,
  SenderRules,
  ApplySieveScript,
  SaveSieveScript,
  SieveScripts,
  ChangeMailboxes,
  ChangeMailsInBulk,
  ContactQueries,
  MailboxChanges,
  MailboxQueries,
  MailContentReader,
  MailDetailQuery,
  MailListQuery,
  MailQueries,
  MailUpdates,
  PerUserLimit,
  ReadReceipts,
  RenderedContentCache,
  StartBulkChange,
  UndoBulkChange,
  ThreadQueries,
} from '@letterbox/mail';
import { createJobQueues, JobQueues } from '@letterbox/queue';
import { VacationSettings } from '@letterbox/sending';
import { DATABASE, READ_ROUTING } from '@letterbox/nest-infrastructure';
import { BlobStore } from '@letterbox/storage';
import { attachmentPath } from './mails/attachment-path';
import type { ReadApiConfig } from './read-api.config';

/**
 * The mail domain's services the read API's controllers use. Reads that tolerate a
 * replica's lag take their pool from the read routing; changes, and what they check
 * first, use the primary, and are announced with the events module's announcer. One
 * PerUserLimit bounds each user's heavy requests in this process, whichever use case runs them.
 */
@Module({})
export class MailServicesModule implements OnApplicationShutdown {
  constructor(
    private readonly receipts: ReadReceipts,
    private readonly queues: JobQueues,
  ) {}

  static forConfig(config: ReadApiConfig, events: DynamicModule): DynamicModule {
    const providers = [
      { provide: MailboxQueries, useFactory: (reads: UserReads) => new MailboxQueries(reads), inject: [READ_ROUTING] },
      {
        provide: ChangeMailboxes,
        useFactory: (db: Database, announcer: MailAnnouncer) =>
          new ChangeMailboxes(new MailboxChanges(db.sql, (userId, password) => confirmPassword(db, userId, password)), announcer),
        inject: [DATABASE, MailAnnouncer],
      },
      { provide: MailQueries, useFactory: (reads: UserReads) => new MailQueries(reads), inject: [READ_ROUTING] },
      { provide: ContactQueries, useFactory: (reads: UserReads) => new ContactQueries(reads), inject: [READ_ROUTING] },
      // Written on the primary: the ingest reads them there, and the user's next list must show their change.
      { provide: SenderRules, useFactory: (db: Database) => new SenderRules(db.sql), inject: [DATABASE] },
      { provide: SieveScripts, useFactory: (db: Database) => new SieveScripts(db.sql), inject: [DATABASE] },
      { provide: VacationSettings, useFactory: (db: Database) => new VacationSettings(db.sql), inject: [DATABASE] },
      { provide: IdentitySettings, useFactory: (db: Database) => new IdentitySettings(db.sql), inject: [DATABASE] },
      {
        provide: ApplySieveScript,
        useFactory: (db: Database, scripts: SieveScripts, blobs: BlobStore, changes: ChangeMailsInBulk) =>
          new ApplySieveScript(db.sql, scripts, blobs, changes),
        inject: [DATABASE, SieveScripts, BlobStore, ChangeMailsInBulk],
      },
      {
        provide: SaveSieveScript,
        useFactory: (db: Database, scripts: SieveScripts) => new SaveSieveScript(db.sql, scripts, (userId) => ownAddressesOf(db, userId)),
        inject: [DATABASE, SieveScripts],
      },
      {
        provide: PerUserLimit,
        useFactory: () => new PerUserLimit({ perUser: config.HEAVY_REQUESTS_PER_USER, waitMs: config.HEAVY_REQUESTS_WAIT_MS }),
      },
      {
        provide: MailListQuery,
        useFactory: (reads: UserReads, heavy: PerUserLimit) => new MailListQuery(reads, heavy),
        inject: [READ_ROUTING, PerUserLimit],
      },
      {
        provide: ThreadQueries,
        useFactory: (reads: UserReads, heavy: PerUserLimit) => new ThreadQueries(reads, heavy),
        inject: [READ_ROUTING, PerUserLimit],
      },
      {
        provide: MailContentReader,
        useFactory: (blobs: BlobStore) =>
          new MailContentReader(
            blobs,
            config.READ_API_RENDER_CACHE_MB > 0 ? new RenderedContentCache(config.READ_API_RENDER_CACHE_MB * 1024 * 1024) : undefined,
          ),
        inject: [BlobStore],
      },
      {
        provide: MailDetailQuery,
        useFactory: (mails: MailQueries, content: MailContentReader) => new MailDetailQuery(mails, content, attachmentPath),
        inject: [MailQueries, MailContentReader],
      },
      {
        provide: ChangeMail,
        useFactory: (db: Database, announcer: MailAnnouncer) => new ChangeMail(new MailUpdates(db), announcer),
        inject: [DATABASE, MailAnnouncer],
      },
      {
        provide: ChangeMailsInBulk,
        useFactory: (db: Database, announcer: MailAnnouncer) => new ChangeMailsInBulk(new BulkMailChanges(db.sql), announcer),
        inject: [DATABASE, MailAnnouncer],
      },
      { provide: BulkChanges, useFactory: (db: Database) => new BulkChanges(db.sql), inject: [DATABASE] },
      {
        provide: ReportSpam,
        // The move, then a job of the ingest worker's that teaches rspamd.
        useFactory: (db: Database, changeMail: ChangeMail, changeInBulk: ChangeMailsInBulk, queues: JobQueues) =>
          new ReportSpam(db, changeMail, changeInBulk, queues),
        inject: [DATABASE, ChangeMail, ChangeMailsInBulk, JobQueues],
      },
      // Changes over a filter are recorded here and run by the ingest worker's bulk-change job.
      { provide: JobQueues, useFactory: () => createJobQueues(config) },
      {
        provide: StartBulkChange,
        useFactory: (db: Database, changes: BulkChanges, queues: JobQueues) => new StartBulkChange(db.sql, changes, queues),
        inject: [DATABASE, BulkChanges, JobQueues],
      },
      {
        provide: UndoBulkChange,
        useFactory: (changes: BulkChanges, start: StartBulkChange) => new UndoBulkChange(changes, start),
        inject: [BulkChanges, StartBulkChange],
      },
      {
        provide: ReadReceipts,
        // An open is a tracking event: waiting for each one's WAL flush would bound the pixel by fsyncs.
        useFactory: () =>
          new ReadReceipts(createSqlPool({ url: config.DATABASE_URL, poolSize: 4, applicationName: 'letterbox-read-receipts', synchronousCommit: false })),
      },
    ];
    return { module: MailServicesModule, imports: [events], providers, exports: providers.map((provider) => provider.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.receipts.close();
    await this.queues.close();
  }
}
