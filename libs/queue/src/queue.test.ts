import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { JobQueues } from './job-queues';
import { assertOneHandlerPerJob, startJobWorker } from './job-worker';
import { JOB_OPTIONS } from './jobs';
import { producerConnection, workerConnection } from './redis-connections';
import { SenderRateLimit } from './sender-rate-limit';
import { redisTargets, unlinkKeys } from '@letterbox/testing';

for (const { name, target } of redisTargets()) {
  describe(`queues against ${name}`, () => {
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const queues = new JobQueues(producerConnection(target), prefix);
    const redis = workerConnection(target);

    after(async () => {
      await queues.close();
      await unlinkKeys(redis, `${prefix}:*`);
      redis.disconnect();
    });

    test('a worker refuses to start without exactly one handler per job of its queue', () => {
      assert.throws(() => assertOneHandlerPerJob('mail-delivery', []), /no handler for \[deliver-send\]/);
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
      const worker = startJobWorker('mail-delivery', { 'deliver-send': async ({ sendId }) => void handled.push(sendId) }, target, { prefix });
      await queues.enqueue('deliver-send', { sendId: 7 });
      for (let tries = 0; tries < 100 && handled.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      await worker.close();
      assert.deepEqual(handled, [7]);
    });

    test('a sender gets its burst at once, then waits; other senders are not affected', async () => {
      const limit = new SenderRateLimit(redis, 5, 3, prefix);
      const waits = [];
      for (let index = 0; index < 4; index++) waits.push(await limit.take('busy@example.test'));
      assert.deepEqual(waits.slice(0, 3), [0, 0, 0]);
      assert.ok(waits[3] > 0 && waits[3] <= 200, `the fourth waits about a fifth of a second, got ${waits[3]} ms`);
      assert.equal(await limit.take('quiet@example.test'), 0);
    });

    test('senders over the limit are given slots of their own, one interval apart, not one wake-up for all', async () => {
      const limit = new SenderRateLimit(redis, 5, 5, prefix);
      const waits = [];
      for (let index = 0; index < 20; index++) waits.push(await limit.take('crowded@example.test'));
      assert.deepEqual(waits.slice(0, 5), [0, 0, 0, 0, 0]);
      const later = waits.slice(5);
      for (let index = 1; index < later.length; index++) {
        // 200 ms apart at 5/s, less the milliseconds between two calls, plus rounding up.
        const gap = later[index] - later[index - 1];
        assert.ok(gap >= 150 && gap <= 202, `slot ${index + 5} is ${gap} ms after the one before: ${later.join(', ')}`);
      }
      assert.ok(later[later.length - 1] >= 2700, `the fifteenth over the limit waits about 3 s, got ${later[later.length - 1]} ms`);
    });
  });
}
