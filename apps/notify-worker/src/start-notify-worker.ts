import { createSqlPool } from '@letterbox/db';
import { DeviceRegistry, NewMailNotifier, openFcm, PushSender } from '@letterbox/push';
import { startJobWorker } from '@letterbox/queue';
import type { NotifyWorkerConfig } from './notify-worker.config';

export interface RunningNotifyWorker {
  /** Lets notifications in flight finish, then deletes the Firebase app and closes every connection. */
  close(): Promise<void>;
}

/** Consumes the push-notify queue with one Firebase app for every job, until closed. */
export async function startNotifyWorker(config: NotifyWorkerConfig): Promise<RunningNotifyWorker> {
  const sql = createSqlPool({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-notify-worker' });
  const fcm = openFcm(config.fcm);
  const notifier = new NewMailNotifier(new DeviceRegistry(sql), new PushSender(fcm.messaging));
  const worker = startJobWorker(
    'push-notify',
    {
      'notify-new-mail': async (payload, job) => {
        await notifier.notify(payload, job);
      },
    },
    config.REDIS_URL,
    { prefix: config.QUEUE_PREFIX, concurrency: config.NOTIFY_CONCURRENCY },
  );
  worker.on('error', (error) => console.error(`[notify] worker: ${error.message}`));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await fcm.close();
      await sql.end();
    },
  };
}
