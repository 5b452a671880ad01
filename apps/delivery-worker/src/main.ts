import { runWorkerProcess } from '@letterbox/queue';
import { loadDeliveryWorkerConfig } from './delivery-worker.config';
import { startDeliveryWorker } from './start-delivery-worker';

runWorkerProcess({
  name: 'delivery worker',
  loadConfig: () => loadDeliveryWorkerConfig(),
  start: startDeliveryWorker,
  describe: (config) => `consuming mail-delivery, sending through ${config.SMTP_HOST}:${config.SMTP_PORT}`,
  inFlight: 'deliveries',
});
