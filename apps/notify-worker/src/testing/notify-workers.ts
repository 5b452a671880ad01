import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Job, Queue } from 'bullmq';
import { loadConfig, redisConfig } from '@letterbox/config';
import { JobQueues, producerConnection, type JobPayloads } from '@letterbox/queue';
import { waitFor } from '@letterbox/testing';

/** Shared by the notify worker's tests; not part of the worker. */

const ROOT = path.resolve(__dirname, '../../../..');

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
    this.queues = new JobQueues(producerConnection(loadConfig(redisConfig).REDIS_URL), prefix);
    this.queue = this.queues.all().find((queue) => queue.name === 'push-notify') as Queue;
  }

  /** The job of a mail, once it has completed or failed for good. */
  async settled(mailId: number, timeoutMs = 20_000): Promise<NotifyJob> {
    await waitFor(
      async () => ['completed', 'failed'].includes((await this.state(mailId)) ?? ''),
      { what: `the notification of mail ${mailId}`, timeoutMs, intervalMs: 50 },
    );
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

export interface WorkerProcess {
  output(): string;
  /** Sends the signal and resolves with the exit code (or the signal's name) once it has exited. */
  stop(signal: NodeJS.Signals): Promise<number | NodeJS.Signals>;
}

/** The worker as its own process, as it runs in production (apps/notify-worker/src/main.ts). */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--require', '@swc-node/register', 'apps/notify-worker/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal as NodeJS.Signals))));
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`the notify worker exited at start: ${output}`);
      return output.includes('notify worker consuming');
    }, { what: 'the notify worker to start', timeoutMs: 30_000, intervalMs: 50 });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    output: () => output,
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
