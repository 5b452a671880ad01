import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rollFcmFailure, tokenOutcome } from './fcm-outcome';

test('each failure rate is its share of the rolls, taken in the order unavailable, quota, internal', () => {
  const rates = { unavailableRate: 0.1, quotaExceededRate: 0.2, internalRate: 0.3 };
  const outcomes = [0, 0.09, 0.11, 0.29, 0.31, 0.59, 0.61, 0.99].map((roll) => rollFcmFailure(rates, roll));
  assert.deepEqual(outcomes, ['UNAVAILABLE', 'UNAVAILABLE', 'QUOTA_EXCEEDED', 'QUOTA_EXCEEDED', 'INTERNAL', 'INTERNAL', 'accepted', 'accepted']);
  assert.equal(rollFcmFailure({ unavailableRate: 0, quotaExceededRate: 0, internalRate: 0 }, 0), 'accepted');
});

test('a scripted answer comes first, then whether the token is dead; other tokens are left to the rates', () => {
  const unregistered = new Set(['tok-gone']);
  assert.equal(tokenOutcome('dead-1', 'QUOTA_EXCEEDED', unregistered), 'QUOTA_EXCEEDED');
  assert.equal(tokenOutcome('dead-1', undefined, unregistered), 'UNREGISTERED');
  assert.equal(tokenOutcome('tok-gone', undefined, unregistered), 'UNREGISTERED');
  assert.equal(tokenOutcome('invalid-1', undefined, unregistered), 'INVALID_ARGUMENT');
  assert.equal(tokenOutcome('tok-live', undefined, unregistered), undefined);
});
