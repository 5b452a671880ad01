import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BatchCollector } from './batch-collector';

describe('BatchCollector', () => {
  test('runs a batch as soon as it is full, and the rest when the wait is over', async () => {
    const batches: number[][] = [];
    const collector = new BatchCollector<number, number>(async (items) => {
      batches.push(items);
      return items.map((item) => item * 10);
    }, { maxSize: 3, maxWaitMs: 20 });
    const results = await Promise.all([1, 2, 3, 4, 5].map((item) => collector.add(item)));
    assert.deepEqual(results, [10, 20, 30, 40, 50]);
    assert.deepEqual(batches, [[1, 2, 3], [4, 5]]);
  });

  test('an item whose outcome is an error fails alone', async () => {
    const collector = new BatchCollector<number, number>(async (items) => items.map((item) => (item === 2 ? new Error('bad item') : item)), {
      maxSize: 3,
      maxWaitMs: 5,
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((item) => collector.add(item)));
    assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled']);
  });

  test('a batch that throws fails every item in it', async () => {
    const collector = new BatchCollector<number, number>(async () => {
      throw new Error('database down');
    }, { maxSize: 10, maxWaitMs: 5 });
    const outcomes = await Promise.allSettled([1, 2].map((item) => collector.add(item)));
    assert.deepEqual(outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as Error).message), ['database down', 'database down']);
  });
});
