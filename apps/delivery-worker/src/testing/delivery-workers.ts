import type { Socket } from 'node:net';
import type { RunningWorker } from '@letterbox/queue';
import { startAppProcess, waitForOutput, type AppProcess } from '@letterbox/testing';
import { loadDeliveryWorkerConfig } from '../delivery-worker.config';
import { startDeliveryWorker } from '../start-delivery-worker';

/** Shared by the end-to-end tests of sending; not part of the worker. */

/** Settings every test worker shares: quick stalled-job takeover and outbox sweeps, no sender limit to speak of. */
export function testWorkerEnv(queuePrefix: string, smtpPort: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    QUEUE_PREFIX: queuePrefix,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    DELIVERY_LOCK_MS: '1500',
    OUTBOX_SWEEP_MS: '500',
    SENDER_RATE_PER_SECOND: '1000',
    SENDER_BURST: '1000',
    ...extra,
  };
}

export interface TestWorker extends RunningWorker {
  /** Redis connections the worker opened and still held after close() (unreferenced then, so the test can end). */
  leakedRedisSockets: number;
}

/**
 * The delivery worker in this process; `env` overrides process.env. close() returns once
 * the worker's close() has; any Redis connection the worker left open after that is
 * counted in `leakedRedisSockets` and unreferenced, so it cannot keep the test process alive.
 */
export async function startTestWorker(env: Record<string, string>): Promise<TestWorker> {
  const config = loadDeliveryWorkerConfig({ ...process.env, ...env });
  const redisPort = Number(new URL(config.REDIS_URL).port || 6379);
  const before = new Set(openSockets());
  const running = await startDeliveryWorker(config);
  const worker: TestWorker = {
    leakedRedisSockets: 0,
    readiness: running.readiness,
    async close() {
      await running.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const leaked = openSockets().filter((socket) => !before.has(socket) && socket.remotePort === redisPort && !socket.destroyed);
      for (const socket of leaked) socket.unref();
      worker.leakedRedisSockets = leaked.length;
    },
  };
  return worker;
}

function openSockets(): Socket[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((handle): handle is Socket => (handle as { constructor?: { name?: string } }).constructor?.name === 'Socket');
}

export type WorkerProcess = AppProcess;

/** The worker as its own process, as it runs in production (apps/delivery-worker/src/main.ts). */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const worker = startAppProcess('delivery worker', 'apps/delivery-worker/src/main.ts', { env });
  await waitForOutput(worker, /delivery worker consuming/);
  // It finishes deliveries in flight when stopped: up to the provider's latency.
  return { ...worker, stop: (signal, graceMs = 20_000) => worker.stop(signal, graceMs) };
}
