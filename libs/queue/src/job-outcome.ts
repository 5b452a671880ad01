/**
 * How a run of a job ended, as its handler says; the worker (job-worker.ts) turns it into BullMQ's moves.
 * A handler that throws is a `retry` with the error as its reason.
 */
export type JobOutcome<Payload> =
  /** Finished. */
  | { outcome: 'done' }
  /** Failed for now: tried again after the job's backoff, as one of its attempts, with `payload` if given. */
  | { outcome: 'retry'; reason: string; payload?: Payload }
  /** Not run yet: run again at `at` (ms since the epoch), with `payload` if given; not one of its attempts. */
  | { outcome: 'later'; at: number; reason: string; payload?: Payload }
  /** Failed for good: no attempt follows. */
  | { outcome: 'failed'; reason: string };

/** What a handler knows of the run it is in, and what it may change before its outcome is known. */
export interface JobAttempt<Payload> {
  /** 1 for the first run; a run put off (`later`) does not count. */
  number: number;
  /** Whether no attempt follows this one if it fails. */
  final: boolean;
  /** Keeps a change to the payload at once, for the job's later runs whatever this one's outcome (or crash). */
  updatePayload(payload: Payload): Promise<void>;
}

export const JOB_DONE = { outcome: 'done' } as const;
