import { ConfigError } from '@letterbox/config';
import { loadIngestWorkerConfig } from './ingest-worker.config';
import { startIngestWorker } from './start-ingest-worker';

async function main(): Promise<void> {
  const config = loadIngestWorkerConfig();
  const running = await startIngestWorker(config);
  console.warn(`ingest worker consuming mail-ingest in batches of up to ${config.INGEST_BATCH_SIZE}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.warn(`ingest worker: ${signal}, finishing batches in flight`);
      running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `ingest worker cannot start. ${error.message}` : error);
  process.exit(1);
});
