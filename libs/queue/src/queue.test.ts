import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { createJobQueues } from './create-job-queues';
import { assertOneHandlerPerJob, startJobWorker } from './job-worker';
import { JOB_OPTIONS } from './jobs';
import { workerConnection } from './redis-connections';
import { redisTargets, unlinkKeys } from '@letterbox/testing';

for (const { name, target } of redisTargets()) {
  describe(`queues against ${name}`, () => {
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const queues = createJobQueues({ ...target, QUEUE_PREFIX: prefix });
    const redis = workerConnection(target);

    after(async () => {
      await queues.close();
      await unlinkKeys(redis, `${prefix}:*`);
      redis.disconnect();
    });

    test('a worker refuses to start without exactly one handler per job of its queue', () => {
      assert.throws(
        () => assertOneHandlerPerJob('mail-ingest', ['ingest-mail']),
        /no handler for \[ingest-mails, store-sent-copies, bulk-change, learn-spam\]/,
      );
      assert.throws(() => assertOneHandlerPerJob('mail-delivery', ['deliver-send', 'deliver-sned']), /unknown jobs \[deliver-sned\]/);
      assert.doesNotThrow(() => assertOneHandlerPerJob('mail-delivery', ['deliver-send']));
    });

    test('the same job added twice is one job, with its retention, retries and backoff', async () => {
      await queues.enqueue('deliver-send', { sendId: 41 });
      await queues.enqueue('deliver-send', { sendId: 41 });
      const [queue] = queues.all();
      const job = await queue.getJob('send-41');
      assert.ok(job);
      assert.equal(await queue.getJobCountByTypes('wait', 'delayed'), 1);
      assert.equal(job.opts.attempts, JOB_OPTIONS['deliver-send'].attempts);
      assert.deepEqual(job.opts.backoff, JOB_OPTIONS['deliver-send'].backoff);
      assert.deepEqual(job.opts.removeOnComplete, JOB_OPTIONS['deliver-send'].removeOnComplete);
      await queues.remove('deliver-send', { sendId: 41 });
      assert.equal(await queues.has('deliver-send', { sendId: 41 }), false);
    });

    test('a worker runs the handler with the typed payload', async () => {
      const handled: number[] = [];
      const worker = startJobWorker(
        'mail-delivery',
        {
          'deliver-send': async ({ sendId }) => {
            handled.push(sendId);
            return { outcome: 'done' };
          },
        },
        target,
        { prefix },
      );
      await queues.enqueue('deliver-send', { sendId: 7 });
      for (let tries = 0; tries < 100 && handled.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      await worker.close();
      assert.deepEqual(handled, [7]);
    });
  });
}
