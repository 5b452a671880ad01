import { createSqlPool } from '@letterbox/db';
import { DeviceRegistry, NewMailNotifier, openFcm, PushSender } from '@letterbox/push';
import { loggerFor, postgresCheck } from '@letterbox/observability';
import { startQueueWorker, type RunningWorker } from '@letterbox/queue';
import type { NotifyWorkerConfig } from './notify-worker.config';

/** Consumes the push-notify queue with one Firebase app for every job, until closed. */
export async function startNotifyWorker(config: NotifyWorkerConfig): Promise<RunningWorker> {
  const sql = createSqlPool({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-notify-worker' });
  const fcm = openFcm(config.fcm);
  const notifier = new NewMailNotifier(new DeviceRegistry(sql), new PushSender(fcm.messaging));
  return startQueueWorker(config, {
    queue: 'push-notify',
    handlers: { 'notify-new-mail': (payload, attempt) => notifier.notify(payload, attempt) },
    options: { concurrency: config.NOTIFY_CONCURRENCY },
    logger: loggerFor('notify'),
    checks: { database: postgresCheck(sql) },
    async close() {
      await fcm.close();
      await sql.end();
    },
  });
}
