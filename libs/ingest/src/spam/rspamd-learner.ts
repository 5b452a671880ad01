import { JOB_DONE, type JobOutcome, type JobPayloads } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';

export interface RspamdLearnerOptions {
  /** The controller worker: `http://127.0.0.1:11334`. */
  controllerUrl: string;
  password: string;
  /** Larger mails are learned from their first bytes only, as they would not have been scored whole either. */
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Teaches rspamd's Bayes classifier a reported mail through its controller (`/learnspam`,
 * `/learnham`). rspamd answering that it knows the mail already (208) is done too; one it
 * refuses to learn (4xx: too short to tell) fails for good; rspamd away throws, and the job is retried.
 */
export class RspamdLearner {
  constructor(
    private readonly blobs: BlobStore,
    private readonly options: RspamdLearnerOptions,
  ) {}

  async learn({ storageKey, size, as }: JobPayloads['learn-spam']): Promise<JobOutcome<JobPayloads['learn-spam']>> {
    const [message] = await this.blobs.readRanges(storageKey, [{ start: 0, end: Math.min(size, this.options.maxBytes) }]);
    const response = await fetch(new URL(as === 'spam' ? '/learnspam' : '/learnham', this.options.controllerUrl), {
      method: 'POST',
      headers: { password: this.options.password },
      body: message,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const answer = await response.text();
    if (response.ok || response.status === 208) return JOB_DONE;
    if (response.status >= 400 && response.status < 500) return { outcome: 'failed', reason: `rspamd would not learn it as ${as}: ${answer.slice(0, 200)}` };
    throw new Error(`rspamd's controller answered ${response.status} to learning ${as}: ${answer.slice(0, 200)}`);
  }
}
