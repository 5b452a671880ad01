import { ConfigError } from '@letterbox/config';

export interface WorkerProcessDefinition<Config> {
  /** As log lines name it: `ingest worker`. */
  name: string;
  loadConfig(): Config;
  start(config: Config): Promise<{ close(): Promise<void> }>;
  /** What it does once started, after its name: `consuming mail-ingest in batches of up to 100`. */
  describe(config: Config): string;
  /** What a stop lets finish: `batches`. */
  inFlight: string;
}

/**
 * Runs a queue worker as its own process: a bad setting stops it at start with a message
 * naming the setting; SIGINT or SIGTERM lets the work in flight finish (or go back to the
 * queue) before it exits.
 */
export function runWorkerProcess<Config>(worker: WorkerProcessDefinition<Config>): void {
  const run = async () => {
    const config = worker.loadConfig();
    const running = await worker.start(config);
    console.warn(`${worker.name} ${worker.describe(config)}`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        console.warn(`${worker.name}: ${signal}, finishing ${worker.inFlight} in flight`);
        running.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(error);
            process.exit(1);
          },
        );
      });
    }
  };
  run().catch((error: unknown) => {
    console.error(error instanceof ConfigError ? `${worker.name} cannot start. ${error.message}` : error);
    process.exit(1);
  });
}
