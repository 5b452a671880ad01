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
      for (let index = 0; index < 4; index++) waits.push((await limit.reserve('busy@example.test')).waitMs);
      assert.deepEqual(waits.slice(0, 3), [0, 0, 0]);
      assert.ok(waits[3] > 0 && waits[3] <= 200, `the fourth waits about a fifth of a second, got ${waits[3]} ms`);
      assert.equal((await limit.reserve('quiet@example.test')).waitMs, 0);
    });

    test('senders over the limit are given slots of their own, one interval apart, not one wake-up for all', async () => {
      const limit = new SenderRateLimit(redis, 5, 5, prefix);
      const waits = [];
      for (let index = 0; index < 20; index++) waits.push((await limit.reserve('crowded@example.test')).waitMs);
      assert.deepEqual(waits.slice(0, 5), [0, 0, 0, 0, 0]);
      const later = waits.slice(5);
      for (let index = 1; index < later.length; index++) {
        // 200 ms apart at 5/s, less the milliseconds between two calls, plus rounding up.
        const gap = later[index] - later[index - 1];
        assert.ok(gap >= 150 && gap <= 202, `slot ${index + 5} is ${gap} ms after the one before: ${later.join(', ')}`);
      }
      assert.ok(later[later.length - 1] >= 2700, `the fifteenth over the limit waits about 3 s, got ${later[later.length - 1]} ms`);
    });

    test('with a burst of one and a lead, every slot is at least the lead ahead and one interval after the last', async () => {
      const limit = new SenderRateLimit(redis, 5, 1, prefix, 300);
      const slots = [];
      for (let index = 0; index < 4; index++) slots.push(await limit.reserve('spaced@example.test'));
      assert.ok(slots[0].waitMs >= 299 && slots[0].waitMs <= 301, `the first slot is the lead ahead, got ${slots[0].waitMs} ms`);
      for (let index = 1; index < slots.length; index++) assert.equal(slots[index].dueAt - slots[index - 1].dueAt, 200, `slot ${index}`);
      const untilFirst = await limit.untilDue('spaced@example.test', slots[0].dueAt);
      assert.ok(untilFirst > 0 && untilFirst <= slots[0].waitMs, `the first slot is ${untilFirst} ms away on Redis's clock`);
    });

    test('a message leaving late holds back the next one at the departure gate, and the slots not yet given', async () => {
      const limit = new SenderRateLimit(redis, 5, 1, prefix);
      const first = await limit.reserve('late@example.test');
      const second = await limit.reserve('late@example.test');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(await limit.depart('late@example.test'), 0, 'the first leaves at once, however late');
      const held = await limit.depart('late@example.test');
      // Its slot has passed, but it may not follow the late one by less than an interval (less the tenth let through).
      assert.ok(held >= 150 && held <= 181, `the second is held ${held} ms`);
      const third = await limit.reserve('late@example.test');
      assert.ok(third.dueAt - second.dueAt >= 200 + held - 5, `the next slot moved by the hold: ${third.dueAt - second.dueAt} ms after the second`);
      assert.equal(second.dueAt - first.dueAt, 200);
    });

    test('a refusal from the provider leaves the sender\'s next slot empty', async () => {
      const limit = new SenderRateLimit(redis, 5, 1, prefix);
      const first = await limit.reserve('refused@example.test');
      await limit.pushBack('refused@example.test');
      const next = await limit.reserve('refused@example.test');
      assert.equal(next.dueAt - first.dueAt, 400, 'two intervals: the pushed-back one and its own');
    });
  });
}
