import { ConfigError } from '@letterbox/config';
import { loadDeliveryWorkerConfig } from './delivery-worker.config';
import { startDeliveryWorker } from './start-delivery-worker';

async function main(): Promise<void> {
  const config = loadDeliveryWorkerConfig();
  const running = await startDeliveryWorker(config);
  console.warn(`delivery worker consuming mail-delivery, sending through ${config.SMTP_HOST}:${config.SMTP_PORT}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.warn(`delivery worker: ${signal}, finishing deliveries in flight`);
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
  console.error(error instanceof ConfigError ? `delivery worker cannot start. ${error.message}` : error);
  process.exit(1);
});
