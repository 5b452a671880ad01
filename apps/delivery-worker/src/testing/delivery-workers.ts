import type { Socket } from 'node:net';
import type { RunningWorker } from '@letterbox/queue';
import { loadDeliveryWorkerConfig } from '../delivery-worker.config';
import { startDeliveryWorker } from '../start-delivery-worker';

/** Shared by the delivery worker's tests; not part of the worker. */

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
