import { createSqlPool } from '@letterbox/db';
import { DeviceRegistry, NewMailNotifier, openFcm, PushSender } from '@letterbox/push';
import { loggerFor, postgresCheck, redisCheck } from '@letterbox/observability';
import { producerConnection, startJobWorker, type RunningWorker } from '@letterbox/queue';
import type { NotifyWorkerConfig } from './notify-worker.config';

const logger = loggerFor('notify');

/** Consumes the push-notify queue with one Firebase app for every job, until closed. */
export async function startNotifyWorker(config: NotifyWorkerConfig): Promise<RunningWorker> {
  const sql = createSqlPool({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-notify-worker' });
  const fcm = openFcm(config.fcm);
  const health = producerConnection(config);
  const notifier = new NewMailNotifier(new DeviceRegistry(sql), new PushSender(fcm.messaging));
  const worker = startJobWorker(
    'push-notify',
    {
      'notify-new-mail': async (payload, job) => {
        await notifier.notify(payload, job);
      },
    },
    config,
    { prefix: config.QUEUE_PREFIX, concurrency: config.NOTIFY_CONCURRENCY },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'worker connection failed'));
  await worker.waitUntilReady();
  return {
    readiness: { database: postgresCheck(sql), redis: redisCheck(health) },
    async close() {
      await worker.close();
      await fcm.close();
      health.disconnect();
      await sql.end();
    },
  };
}
