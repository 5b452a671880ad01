import type { Job, Queue } from 'bullmq';
import type { JobPayloads, JobQueues } from '@letterbox/queue';
import { startAppProcess, testQueues, waitFor, waitForOutput, type AppProcess } from '@letterbox/testing';

/** Shared by the notify worker's tests; not part of the worker. */

export type NotifyJob = Job<JobPayloads['notify-new-mail']>;

/** The worker's settings for a test: its own queue namespace and the test's mock FCM. */
export function notifyWorkerEnv(queuePrefix: string, mockUrl: URL, extra: Record<string, string> = {}): Record<string, string> {
  return { ...process.env, QUEUE_PREFIX: queuePrefix, FCM_MOCK_URL: mockUrl.href, ...extra } as Record<string, string>;
}

/** The push-notify queue of one prefix, as producers add to it and as a test inspects it. */
export class NotifyQueue {
  readonly queues: JobQueues;
  readonly queue: Queue;

  constructor(readonly prefix: string) {
    this.queues = testQueues(prefix);
    this.queue = this.queues.all().find((queue) => queue.name === 'push-notify') as Queue;
  }

  /** The job of a mail, once it has completed or failed for good. */
  async settled(mailId: number, timeoutMs = 20_000): Promise<NotifyJob> {
    await waitFor(async () => ['completed', 'failed'].includes((await this.state(mailId)) ?? ''), {
      what: `the notification of mail ${mailId}`,
      timeoutMs,
      intervalMs: 50,
    });
    // Read once settled, so its attempts and data are the final ones.
    return (await this.queue.getJob(`notify-${mailId}`)) as NotifyJob;
  }

  async state(mailId: number): Promise<string | undefined> {
    return (await this.queue.getJob(`notify-${mailId}`))?.getState();
  }

  /** Removes the queue's jobs and keys, and closes the producer. */
  async close(): Promise<void> {
    await this.queue.obliterate({ force: true });
    await this.queues.close();
  }
}

/** The worker as its own process, as it runs in production (apps/notify-worker/src/main.ts). */
export async function startWorkerProcess(env: Record<string, string>): Promise<AppProcess> {
  // Its start-up line is what is waited for, whatever level the test process logs at.
  const worker = startAppProcess('notify worker', 'apps/notify-worker/src/main.ts', { env: { ...env, LOG_LEVEL: 'info' } });
  await waitForOutput(worker, /notify worker consuming/);
  return { ...worker, stop: (signal, graceMs = 20_000) => worker.stop(signal, graceMs) };
}
