import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '@letterbox/config';
import { deliveryLockOptions } from './delivery-lock';
import { loadDeliveryWorkerConfig } from './delivery-worker.config';

test('unset, the deliveries of a killed worker are taken over within 20 s, not the minute or more a 30 s lock and stalled check took', () => {
  const { DELIVERY_LOCK_MS } = loadDeliveryWorkerConfig({ LETTERBOX_DEMO: 'true' });
  assert.equal(DELIVERY_LOCK_MS, 10_000);
  const { lockDuration = 0, stalledInterval = 0 } = deliveryLockOptions(DELIVERY_LOCK_MS);
  // The lock runs out at most a lock after the kill; the stalled check after next at the latest queues the job again.
  assert.equal(lockDuration + 2 * stalledInterval, 20_000);
});

test('the lock is renewed well before it runs out, so a long SMTP conversation keeps it', () => {
  for (const lockMs of [1000, 1501, 10_000, 600_000]) {
    const { lockDuration, lockRenewTime = Infinity, stalledInterval = Infinity } = deliveryLockOptions(lockMs);
    assert.equal(lockDuration, lockMs);
    assert.ok(lockRenewTime <= lockMs / 2, `${lockMs}: renewed by half the lock`);
    assert.ok(Number.isInteger(stalledInterval) && stalledInterval <= lockMs / 2, `${lockMs}: checked every half lock, in whole ms`);
  }
});

test('a lock under a second or over ten minutes stops the worker at start', () => {
  assert.throws(() => loadDeliveryWorkerConfig({ DELIVERY_LOCK_MS: '500' }), ConfigError);
  assert.throws(() => loadDeliveryWorkerConfig({ DELIVERY_LOCK_MS: '600001' }), ConfigError);
});
