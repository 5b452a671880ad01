import { runWorkerProcess } from '@letterbox/queue';
import { loadNotifyWorkerConfig } from './notify-worker.config';
import { startNotifyWorker } from './start-notify-worker';

runWorkerProcess({
  name: 'notify worker',
  loadConfig: () => loadNotifyWorkerConfig(),
  start: startNotifyWorker,
  describe: ({ fcm }) =>
    `consuming push-notify, ${!fcm ? 'push off' : fcm.kind === 'mock' ? `sending through the mock FCM at ${fcm.url.origin}` : 'sending through FCM'}`,
  inFlight: 'notifications',
});
