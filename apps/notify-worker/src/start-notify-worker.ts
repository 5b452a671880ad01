import { createSqlPool } from '@letterbox/db';
import { DeviceRegistry, NewMailNotifier, openFcm, PushSender } from '@letterbox/push';
import { loggerFor, postgresCheck } from '@letterbox/observability';
import { JOB_DONE, startQueueWorker, type RunningWorker } from '@letterbox/queue';
import type { NotifyWorkerConfig } from './notify-worker.config';

/**
 * Consumes the push-notify queue with one Firebase app for every job, until closed. Without FCM
 * (push off) it still takes the jobs, so the queue does not grow, and sends nothing.
 */
export async function startNotifyWorker(config: NotifyWorkerConfig): Promise<RunningWorker> {
  const sql = createSqlPool({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-notify-worker' });
  const logger = loggerFor('notify');
  const fcm = config.fcm && openFcm(config.fcm);
  const notifier = fcm && new NewMailNotifier(new DeviceRegistry(sql), new PushSender(fcm.messaging));
  if (!notifier) logger.warn('push is off: neither GOOGLE_APPLICATION_CREDENTIALS nor FCM_MOCK_URL is set; new-mail notifications are taken and not sent');
  return startQueueWorker(config, {
    queue: 'push-notify',
    handlers: { 'notify-new-mail': (payload, attempt) => (notifier ? notifier.notify(payload, attempt) : Promise.resolve(JOB_DONE)) },
    options: { concurrency: config.NOTIFY_CONCURRENCY },
    logger,
    checks: { database: postgresCheck(sql) },
    async close() {
      await fcm?.close();
      await sql.end();
    },
  });
}
