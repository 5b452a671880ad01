import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BatchCollector } from './batch-collector';

describe('BatchCollector', () => {
  test('runs a batch as soon as it is full, and the rest when the wait is over', async () => {
    const batches: number[][] = [];
    const collector = new BatchCollector<number, number>(
      async (items) => {
        batches.push(items);
        return items.map((item) => item * 10);
      },
      { maxSize: 3, maxWaitMs: 20 },
    );
    const results = await Promise.all([1, 2, 3, 4, 5].map((item) => collector.add(item)));
    assert.deepEqual(results, [10, 20, 30, 40, 50]);
    assert.deepEqual(batches, [
      [1, 2, 3],
      [4, 5],
    ]);
  });

  test('an item whose outcome is an error fails alone', async () => {
    const collector = new BatchCollector<number, number>(async (items) => items.map((item) => (item === 2 ? new Error('bad item') : item)), {
      maxSize: 3,
      maxWaitMs: 5,
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((item) => collector.add(item)));
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });

  test('a batch that throws fails every item in it', async () => {
    const collector = new BatchCollector<number, number>(
      async () => {
        throw new Error('database down');
      },
      { maxSize: 10, maxWaitMs: 5 },
    );
    const outcomes = await Promise.allSettled([1, 2].map((item) => collector.add(item)));
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as Error).message),
      ['database down', 'database down'],
    );
  });

  test('with maxInFlight, items arriving while a batch runs go together in the next one, also after a failure', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstRuns = new Promise<void>((resolve) => (release = resolve));
    const collector = new BatchCollector<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) {
          await firstRuns;
          throw new Error('first batch fails');
        }
        return items;
      },
      { maxSize: 4, maxWaitMs: 1, maxInFlight: 1 },
    );
    const first = collector.add(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const later = [2, 3, 4, 5, 6].map((item) => collector.add(item));
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(batches, [[1]], 'nothing more runs while the first batch does');
    release();
    await assert.rejects(first, /first batch fails/);
    assert.deepEqual(await Promise.all(later), [2, 3, 4, 5, 6]);
    assert.deepEqual(batches, [[1], [2, 3, 4, 5], [6]], 'the waiting items went in full batches, one after another');
  });
});
