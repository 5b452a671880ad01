import { runWorkerProcess } from '@letterbox/queue';
import { loadNotifyWorkerConfig } from './notify-worker.config';
import { startNotifyWorker } from './start-notify-worker';

runWorkerProcess({
  name: 'notify worker',
  loadConfig: () => loadNotifyWorkerConfig(),
  start: startNotifyWorker,
  describe: (config) => `consuming push-notify, sending through ${config.fcm.kind === 'mock' ? `the mock FCM at ${config.fcm.url.origin}` : 'FCM'}`,
  inFlight: 'notifications',
});
