import type { MailAuthentication } from '@letterbox/mail-auth';
import type { JobsOptions } from 'bullmq';

/**
 * Every job Letterbox queues, by name, with its payload: producers and consumers share
 * this one map, so a payload cannot drift between the side that adds a job and the
 * side that runs it.
 */
export interface JobPayloads {
  /** Deliver one recorded outbound send through SMTP. */
  'deliver-send': {
    sendId: number;
    /** Set while the job waits for a rate-limit token it already took: its next message goes without taking another. */
    tokenDueAt?: number;
  };
  /**
   * Compose and store the Sent copies of sends recorded together, from their recorded
   * requests: one job for a group. A copy already stored is skipped.
   */
  'store-sent-copies': {
    sendIds: number[];
  };
  /**
   * Store one accepted incoming message in its recipients' inboxes: a message split out of
   * its group because it failed there, one the acceptance sweep queued again, or one queued
   * before groups existed.
   */
  'ingest-mail': InboundMessageJob;
  /**
   * Store the messages accepted together (one acceptance group): one job for them all, so
   * a burst costs the queue a job per group, not per message. A message that fails is
   * split out into an `ingest-mail` job of its own and cannot hold up the others.
   */
  'ingest-mails': {
    /** Unique per group; its acceptances name it, so the sweep can tell whether Redis lost it. */
    groupId: string;
    /** Each with the id of the request that brought it. */
    messages: Array<InboundMessageJob & JobTrace>;
  };
  /**
   * Work through a change over a filter (libs/mail RunBulkChange), slice by slice from its
   * recorded cursor: a retried or resumed job goes on where the last committed slice ended.
   */
  'bulk-change': {
    changeId: number;
    /** Whose mail it changes: its slices are announced to them. */
    userId: number;
  };
  /**
   * Teach rspamd's Bayes classifier a mail its user reported as spam or as not spam (through its controller),
   * read from storage by its key: a mail deleted meanwhile is still learned from.
   */
  'learn-spam': {
    mailId: number;
    storageKey: string;
    size: number;
    as: 'spam' | 'ham';
  };
  /** Announce one stored mail on its owner's registered devices. */
  'notify-new-mail': {
    userId: number;
    mailId: number;
    from: string;
    subject: string;
    /** Set when a transient FCM failure is retried: only these tokens are sent to again. */
    retryTokens?: string[];
  };
}

export type JobName = keyof JobPayloads;

/** One accepted incoming message, as its ingest job carries it (in blob storage, or in the intake's spool). */
export interface InboundMessageJob {
  /** Unique per acceptance; a message accepted twice is two ingests, deduplicated by Message-ID. */
  inboundId: string;
  /** Its key in blob storage: where it is, or where the worker puts it from the spool. */
  storageKey: string;
  /**
   * Where the intake spooled it (disk storage): a spool file and the offset of its `size`
   * bytes. Absent when the intake put it into blob storage itself.
   */
  spooled?: { file: string; offset: number };
  /** Bytes of the stored message. */
  size: number;
  /** Its Message-ID (or one made from its content), as the stored mail keeps it. */
  messageId: string;
  /**
   * With each recipient, the key that stores it once (sender and Message-ID hashed).
   * Absent from jobs queued before it existed: their messageId is their key.
   */
  dedupKey?: string;
  /** Letterbox user ids the envelope named, already checked to exist. */
  recipientIds: number[];
  /**
   * Bounce addresses of Letterbox's sends (`bounces+…@` one of its domains) the envelope named:
   * the message is a bounce, read by the ingest pipeline's bounce stage, and stored for no one. An
   * SRS address (`SRS0=…@`, a redirected mail's envelope sender) is one too: its bounce goes back to the original sender.
   */
  bounceTo?: string[];
  /** When intake acknowledged it (ISO 8601). */
  receivedAt: string;
  /** The checks the intake made of it; absent when it made none (INGEST_VERIFY_SENDERS off) and in jobs queued before. */
  authentication?: MailAuthentication;
  /** The recipients' mailbox it goes to (Spam: a forged colleague, a DMARC quarantine); the inbox when absent. */
  mailbox?: 'inbox' | 'spam';
  /**
   * How it came from outside, as the spam check tells rspamd: the connecting address, HELO and MAIL FROM when
   * the intake knew them, and the envelope's recipients. Absent for mail from colleagues and in jobs queued before.
   */
  peer?: InboundPeer;
}

export interface InboundPeer {
  ip?: string;
  helo?: string;
  mailFrom?: string;
  rcptTo: string[];
}

/**
 * What every job carries beside its payload: the id of the request (or job) it was queued for, so its log lines
 * can be followed from that request. Set by JobQueues from the request being served, or by a producer that
 * gathers payloads from many requests into one batch.
 */
export interface JobTrace {
  requestId?: string;
}

export const QUEUE_OF = {
  'deliver-send': 'mail-delivery',
  'ingest-mail': 'mail-ingest',
  'ingest-mails': 'mail-ingest',
  // Stored by the ingest worker with incoming mail, so composing copies never delays the paced deliveries.
  'store-sent-copies': 'mail-ingest',
  // Run by the ingest worker, which stores mail in mailboxes; its slices are short transactions like the ingest batches'.
  'bulk-change': 'mail-ingest',
  // Run by the ingest worker, which asks rspamd about incoming mail too.
  'learn-spam': 'mail-ingest',
  'notify-new-mail': 'push-notify',
} as const satisfies Record<JobName, string>;

export type QueueName = (typeof QUEUE_OF)[JobName];

export const QUEUE_NAMES: QueueName[] = [...new Set(Object.values(QUEUE_OF))];

const HOUR_SECONDS = 3600;

const INGEST_OPTIONS = {
  // Accepted mail must not be lost: about an hour of retries, then kept 30 days in the
  // failed set (its EML stays in storage) to be retried from the dashboard.
  attempts: 20,
  backoff: { type: 'exponential', delay: 500, jitter: 0.5 },
  removeOnComplete: { age: 24 * HOUR_SECONDS, count: 100_000 },
  removeOnFail: { age: 30 * 24 * HOUR_SECONDS },
} as const satisfies JobsOptions;

/** Retention, retries and backoff of every job, set where the job is defined. */
export const JOB_OPTIONS = {
  'deliver-send': {
    // About 17 minutes of retries with jitter before a send is given up as failed.
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
    removeOnComplete: { age: 24 * HOUR_SECONDS, count: 10_000 },
    removeOnFail: { age: 7 * 24 * HOUR_SECONDS },
  },
  'store-sent-copies': {
    // The request is recorded, so a copy can always be composed again: about an hour of
    // retries, then the ingest worker's sweep goes on trying.
    attempts: 20,
    backoff: { type: 'exponential', delay: 500, jitter: 0.5 },
    removeOnComplete: { age: HOUR_SECONDS, count: 10_000 },
    removeOnFail: { age: 7 * 24 * HOUR_SECONDS },
  },
  'ingest-mail': INGEST_OPTIONS,
  'ingest-mails': INGEST_OPTIONS,
  'bulk-change': {
    // Each retry resumes from the last committed slice; about 17 minutes of them (a database
    // away), then the change is marked failed.
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
    removeOnComplete: { age: 24 * HOUR_SECONDS, count: 10_000 },
    removeOnFail: { age: 7 * 24 * HOUR_SECONDS },
  },
  'learn-spam': {
    // rspamd away for a while (a restart) is waited for: about 17 minutes of retries; a report never learned is a small loss.
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
    removeOnComplete: { age: HOUR_SECONDS, count: 10_000 },
    removeOnFail: { age: 7 * 24 * HOUR_SECONDS },
  },
  'notify-new-mail': {
    // A push is worth little once the mail is old: a few minutes of retries at most.
    attempts: 6,
    backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
    removeOnComplete: { age: HOUR_SECONDS, count: 100_000 },
    removeOnFail: { age: 7 * 24 * HOUR_SECONDS },
  },
} as const satisfies Record<JobName, JobsOptions>;

/** A job's id from its payload: adding the same job twice (a retried enqueue, the sweeper) is a no-op. */
const JOB_IDS: { [Name in JobName]: (payload: JobPayloads[Name]) => string } = {
  'deliver-send': ({ sendId }) => `send-${sendId}`,
  // A group's first send belongs to that group alone.
  'store-sent-copies': ({ sendIds }) => `sent-copies-${sendIds[0]}`,
  'ingest-mail': ({ inboundId }) => `inbound-${inboundId}`,
  'ingest-mails': ({ groupId }) => `inbound-group-${groupId}`,
  'bulk-change': ({ changeId }) => `bulk-change-${changeId}`,
  // A report repeated within the hour its job is kept is learned once (rspamd would refuse it again anyway).
  'learn-spam': ({ mailId, as }) => `learn-${as}-${mailId}`,
  // Keyed by mail: a retried ingest re-announcing a mail it already stored adds nothing.
  'notify-new-mail': ({ mailId }) => `notify-${mailId}`,
};

export function jobIdOf<Name extends JobName>(name: Name, payload: JobPayloads[Name]): string {
  return (JOB_IDS[name] as (payload: JobPayloads[Name]) => string)(payload);
}
