import { ConfigError } from '@letterbox/config';
import { loadNotifyWorkerConfig } from './notify-worker.config';
import { startNotifyWorker } from './start-notify-worker';

async function main(): Promise<void> {
  const config = loadNotifyWorkerConfig();
  const running = await startNotifyWorker(config);
  const fcm = config.fcm.kind === 'mock' ? `the mock FCM at ${config.fcm.url.origin}` : 'FCM';
  console.warn(`notify worker consuming push-notify, sending through ${fcm}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.warn(`notify worker: ${signal}, finishing notifications in flight`);
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
  console.error(error instanceof ConfigError ? `notify worker cannot start. ${error.message}` : error);
  process.exit(1);
});
