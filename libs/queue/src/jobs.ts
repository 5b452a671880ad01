import type { JobsOptions } from 'bullmq';

/**
 * Every job Letterbox queues, by name, with its payload: producers and consumers share
 * this one map, so a payload cannot drift between the side that adds a job and the
 * side that runs it.
 */
export interface JobPayloads {
  /** Deliver one recorded outbound send through SMTP. */
  'deliver-send': { sendId: number };
}

export type JobName = keyof JobPayloads;

export const QUEUE_OF = {
  'deliver-send': 'mail-delivery',
} as const satisfies Record<JobName, string>;

export type QueueName = (typeof QUEUE_OF)[JobName];

export const QUEUE_NAMES: QueueName[] = [...new Set(Object.values(QUEUE_OF))];

const HOUR_SECONDS = 3600;

/** Retention, retries and backoff of every job, set where the job is defined. */
export const JOB_OPTIONS = {
  'deliver-send': {
    // About 17 minutes of retries with jitter before a send is given up as failed.
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000, jitter: 0.5 },
    removeOnComplete: { age: 24 * HOUR_SECONDS, count: 10_000 },
    removeOnFail: { age: 7 * 24 * HOUR_SECONDS },
  },
} as const satisfies Record<JobName, JobsOptions>;

/** A job's id from its payload: adding the same job twice (a retried enqueue, the sweeper) is a no-op. */
const JOB_IDS: { [Name in JobName]: (payload: JobPayloads[Name]) => string } = {
  'deliver-send': ({ sendId }) => `send-${sendId}`,
};

export function jobIdOf<Name extends JobName>(name: Name, payload: JobPayloads[Name]): string {
  return (JOB_IDS[name] as (payload: JobPayloads[Name]) => string)(payload);
}
