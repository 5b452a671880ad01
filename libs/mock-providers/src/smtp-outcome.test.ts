import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rollInjectedFailure } from './smtp-outcome';

test('each failure rate is its share of the rolls, taken in the order temporary, permanent, dropped', () => {
  const rates = { tempFailRate: 0.1, permFailRate: 0.2, dropRate: 0.3 };
  const outcomes = [0, 0.09, 0.11, 0.29, 0.31, 0.59, 0.61, 0.99].map((roll) => rollInjectedFailure(rates, roll));
  assert.deepEqual(outcomes, ['tempFailed', 'tempFailed', 'permFailed', 'permFailed', 'dropped', 'dropped', 'accepted', 'accepted']);
});

test('with no failure rates every mail is accepted, and a rate of 1 catches every roll', () => {
  const none = { tempFailRate: 0, permFailRate: 0, dropRate: 0 };
  assert.equal(rollInjectedFailure(none, 0), 'accepted');
  assert.equal(rollInjectedFailure({ ...none, permFailRate: 1 }, 0.999999), 'permFailed');
});
