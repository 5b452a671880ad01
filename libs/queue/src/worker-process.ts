import { exitOnStartupFailure, loggerFor, nameProcess, startOpsServer, startProcessMetrics, type DependencyCheck } from '@letterbox/observability';

export interface RunningWorker {
  close(): Promise<void>;
  /** What /health/ready asks: the worker's database, Redis, storage. */
  readiness: Record<string, DependencyCheck>;
}

export interface WorkerProcessDefinition<Config extends { OPS_PORT: number; OPS_HOST: string }> {
  /** As messages name it: `ingest worker` (`ingest-worker` in log lines' app and metrics). */
  name: string;
  loadConfig(): Config;
  start(config: Config): Promise<RunningWorker>;
  /** What it does once started: `consuming mail-ingest in batches of up to 100`. */
  describe(config: Config): string;
  /** What a stop lets finish: `batches`. */
  inFlight: string;
}

/**
 * Runs a queue worker as its own process: a bad setting stops it at start with a message naming the setting;
 * its ops listener answers health and metrics; SIGINT or SIGTERM lets the work in flight finish (or go back to
 * the queue) before it exits.
 */
export function runWorkerProcess<Config extends { OPS_PORT: number; OPS_HOST: string }>(worker: WorkerProcessDefinition<Config>): void {
  const app = worker.name.replaceAll(' ', '-');
  nameProcess(app);
  startProcessMetrics(app);
  const logger = loggerFor('process');
  const run = async () => {
    const config = worker.loadConfig();
    const running = await worker.start(config);
    const ops = await startOpsServer({ host: config.OPS_HOST, port: config.OPS_PORT, checks: running.readiness });
    logger.info(`${worker.name} ${worker.describe(config)}; health and metrics on port ${ops.port}`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        logger.info(`${worker.name}: ${signal}, finishing ${worker.inFlight} in flight`);
        running
          .close()
          .then(() => ops.close())
          .then(
            () => process.exit(0),
            (error: unknown) => {
              logger.error({ err: error }, 'could not stop cleanly');
              process.exit(1);
            },
          );
      });
    }
  };
  run().catch((error: unknown) => exitOnStartupFailure(worker.name, error));
}
