import { runWorkerProcess } from '@letterbox/queue';
import { loadIngestWorkerConfig } from './ingest-worker.config';
import { startIngestWorker } from './start-ingest-worker';

runWorkerProcess({
  name: 'ingest worker',
  loadConfig: () => loadIngestWorkerConfig(),
  start: startIngestWorker,
  describe: (config) => `consuming mail-ingest in batches of up to ${config.INGEST_BATCH_SIZE}`,
  inFlight: 'batches',
});
