import cluster from 'node:cluster';
import { exitOnStartupFailure, loggerFor } from '@letterbox/observability';

/**
 * Runs `start` in `workers` processes sharing one listening port. Each worker is
 * replaced if it dies; a signal to the primary stops them all.
 */
export function runClustered(workers: number, start: () => Promise<void>): void {
  if (workers <= 1 || !cluster.isPrimary) {
    start().catch((error: unknown) => exitOnStartupFailure(`process ${process.pid}`, error));
    return;
  }
  let stopping = false;
  for (let index = 0; index < workers; index++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    if (code === 1 && !worker.exitedAfterDisconnect) {
      loggerFor('process').fatal(`worker ${worker.process.pid} failed to start; stopping`);
      stopping = true;
      process.exit(1);
    }
    cluster.fork();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
}
