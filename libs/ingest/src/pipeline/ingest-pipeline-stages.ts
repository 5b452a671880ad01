import type { Logger } from 'pino';
import type { Database } from '@letterbox/db';
import type { MailAnnouncer } from '@letterbox/events';
import { loggerFor } from '@letterbox/observability';
import type { JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import type { IncomingBounces, MailRedirector, VacationResponder } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';
import { IngestedMessages } from '../ingested-messages';
import { RecipientDirectory } from '../recipient-directory';
import type { IntakeSpool } from '../intake-spool';
import type { RspamdScanner } from '../spam/rspamd-scanner';
import { AnnounceStage } from './stages/announce-stage';
import { BounceStage } from './stages/bounce-stage';
import { DedupStage } from './stages/dedup-stage';
import { IngestPipeline } from './ingest-pipeline';
import type { IngestStage } from './ingest-stage';
import { ParseStage } from './stages/parse-stage';
import { RedirectStage } from './stages/redirect-stage';
import { RememberStage } from './stages/remember-stage';
import { RulesStage } from './stages/rules-stage';
import { SpamStage } from './stages/spam-stage';
import { SrsReturnStage } from './stages/srs-return-stage';
import { StoreStage } from './stages/store-stage';
import { VacationStage } from './stages/vacation-stage';

/** What the stages use. */
export interface IngestPipelineOptions {
  db: Database;
  blobs: BlobStore;
  /** The worker's command connection: Redis remembers there what was stored. */
  redis: RedisConnection;
  queuePrefix: string;
  /** Where the push notifications of stored mail are queued. */
  queues: JobQueues;
  announcer: MailAnnouncer;
  /** The intake's spool, on disk storage only. */
  spool?: IntakeSpool;
  /** What reads the bounces coming back to sends' bounce addresses. */
  bounces: IncomingBounces;
  /** What scores incoming mail (SPAM_CHECK), and the size past which a message is stored unscored; without it none is scored, and only users' blocked senders go to Spam. */
  spam?: { scanner: RspamdScanner; maxBytes: number };
  /** What sends out-of-office replies; without it, none are sent. */
  vacation?: VacationResponder;
  /** What sends mail on where users' rules redirect it, and the bounces of what it sent back to their senders; without it, neither is. */
  redirector?: MailRedirector;
  logger?: Logger;
}

/**
 * Every stage an accepted message goes through, in order: the one place they are listed.
 * Known duplicates are dropped before anything is read; a message is parsed before it is
 * stored, stored before its storing is remembered and announced; a bounce becomes its sender's notices
 * before the store, which they join in the announcements, and a bounce of a redirected mail goes back to its sender; rspamd scores what is parsed, and its
 * verdict with the recipients' blocked and allowed senders decides whether it goes to Spam; the recipients' rules (Sieve)
 * then file the rest into their folders, with flags, or discard it, before the store, and what they redirect goes on
 * once it is stored, before its storing is remembered; out-of-office replies answer
 * what was stored once it is announced. A new stage is a class
 * of its own (an IngestStage, in a file of its own) and a line here, where it belongs: a
 * check of the message's content between parse and store, say.
 */
export function ingestStages(options: IngestPipelineOptions): IngestStage[] {
  const { db, blobs, redis, queuePrefix, queues, announcer, spool, bounces, spam, vacation, redirector, logger = loggerFor('ingest') } = options;
  const ingested = new IngestedMessages(redis, queuePrefix);
  return [
    new DedupStage(ingested),
    new ParseStage(blobs, spool),
    new BounceStage(db.sql, blobs, spool, bounces, logger),
    ...(redirector ? [new SrsReturnStage(blobs, spool, redirector, logger)] : []),
    new SpamStage(db.sql, blobs, spam, logger),
    new RulesStage(db.sql, blobs, new RecipientDirectory(db.sql), logger),
    new StoreStage(db.sql, logger),
    ...(redirector ? [new RedirectStage(blobs, redirector, logger)] : []),
    new RememberStage(ingested),
    new AnnounceStage(announcer, queues, logger),
    ...(vacation ? [new VacationStage(db.sql, blobs, vacation, logger)] : []),
  ];
}

export function createIngestPipeline(options: IngestPipelineOptions): IngestPipeline {
  return new IngestPipeline(ingestStages(options));
}
