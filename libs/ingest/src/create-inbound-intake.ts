import type { Pool } from 'pg';
import { MailVerifier, type MailVerifierOptions } from '@letterbox/mail-auth';
import type { JobQueues } from '@letterbox/queue';
import type { SrsAddresses } from '@letterbox/sending';
import type { BlobReferences, BlobStore } from '@letterbox/storage';
import { InboundAcceptances } from './inbound-acceptances';
import { InboundIntake } from './inbound-intake';
import type { IntakeSpool } from './intake-spool';
import { RecipientDirectory } from './recipient-directory';
import { RecipientQuotas } from './recipient-quotas';
import { RspamdScanner, type RspamdScannerOptions } from './spam/rspamd-scanner';

export interface InboundIntakeOptions {
  /** The primary's pool: recipients and their usage are looked up and acceptances recorded there. */
  sql: Pool;
  blobs: BlobStore;
  /**
   * What in the database refers to a blob, asked on the primary (DatabaseBlobReferences of
   * @letterbox/blob-references): a message refused after it was written is removed unless its bytes are another's.
   */
  references: BlobReferences;
  /** Where the accepted messages' jobs go. */
  queues: JobQueues;
  maxMessageBytes: number;
  /** USER_QUOTA_BYTES: the quota of a user without one of their own. */
  defaultQuotaBytes: number;
  /** Given when another part of the process resolves recipients too, so that both share its cache; otherwise one of its own. */
  directory?: RecipientDirectory;
  /** Where small messages are spooled (see intakeSpoolFor); without one, every message streams into blob storage. */
  spool?: IntakeSpool;
  /** How incoming mail is checked (see MailVerifier); without it (INGEST_VERIFY_SENDERS off) it is stored as it came. */
  verification?: Omit<MailVerifierOptions, 'isOwnAddress'>;
  /** The rspamd scanner whose `reject` action refuses a message before it is acknowledged (SPAM_REJECT); without it none is. */
  spamRefusal?: RspamdScannerOptions;
  /** What checks the SRS addresses of redirected mail, whose bounces come back to them (SRS_SECRET); without it, mail to one is refused. */
  srs?: SrsAddresses;
}

/** The intake of incoming mail, wired to PostgreSQL and the queues: the one way the ingest app, colleague delivery and the benches build it. */
export function createInboundIntake(options: InboundIntakeOptions): InboundIntake {
  const {
    sql,
    blobs,
    references,
    queues,
    maxMessageBytes,
    defaultQuotaBytes,
    directory = new RecipientDirectory(sql),
    spool,
    verification,
    spamRefusal,
    srs,
  } = options;
  const verifier = verification && new MailVerifier({ ...verification, isOwnAddress: (address) => directory.inOwnDomain(address) });
  return new InboundIntake(
    blobs,
    directory,
    new RecipientQuotas(sql, defaultQuotaBytes),
    new InboundAcceptances(sql, queues),
    references,
    maxMessageBytes,
    spool,
    verifier,
    spamRefusal && new RspamdScanner(spamRefusal),
    srs,
  );
}
