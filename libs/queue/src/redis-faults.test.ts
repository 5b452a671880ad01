import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { loadConfig, redisConfig } from '@letterbox/config';
import { logFaultsAsExpected, startTcpProxy } from '@letterbox/testing';
import { createJobQueues } from './create-job-queues';
import { JobQueues, QueueUnavailableError } from './job-queues';
import { failFastConnection } from '@letterbox/redis';

// Redis away is deliberate here: its warnings are expected.
logFaultsAsExpected();

const redisTarget = { REDIS_URL: loadConfig(redisConfig).REDIS_URL };

test('while Redis is unreachable, many calls fail fast, all waiting on one ready listener', async () => {
  const redis = failFastConnection({ REDIS_URL: 'redis://127.0.0.1:6391' }, 'redis producer');
  const queues = new JobQueues(redis, `test-${randomUUID().slice(0, 8)}`);
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    const before = redis.listenerCount('ready');
    const calls = Array.from({ length: 50 }, (_, index) => queues.enqueue('deliver-send', { sendId: index + 1 }));
    await Promise.resolve();
    const waiting = redis.listenerCount('ready') - before;
    for (const result of await Promise.allSettled(calls)) {
      assert.equal(result.status, 'rejected');
      assert.ok(result.reason instanceof QueueUnavailableError, String(result.reason));
    }
    assert.equal(waiting, 1);
    assert.deepEqual(
      warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning'),
      [],
    );
  } finally {
    process.off('warning', onWarning);
    await queues.close().catch(() => undefined);
  }
});

test('a command in flight when Redis goes away is QueueUnavailableError, not whatever ioredis threw', async () => {
  const proxy = await startTcpProxy(Number(new URL(redisTarget.REDIS_URL).port || 6379));
  const queues = createJobQueues({ REDIS_URL: proxy.url('redis'), QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}` });
  try {
    await queues.enqueue('deliver-send', { sendId: 1 });
    proxy.hold();
    const inFlight = queues.enqueue('deliver-send', { sendId: 2 });
    setTimeout(() => void proxy.cut(), 100);
    await assert.rejects(inFlight, QueueUnavailableError);
  } finally {
    await proxy.cut();
    await queues.close().catch(() => undefined);
  }
});
