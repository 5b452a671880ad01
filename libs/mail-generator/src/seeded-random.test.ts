import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SeededRandom } from './seeded-random';

describe('SeededRandom', () => {
  test('keeps its sequence across releases, since stored expectations depend on these bytes', () => {
    const random = new SeededRandom(1);
    assert.deepEqual([random.next32(), random.next32(), random.next32(), random.next32()], [393288148, 2174103013, 3814759091, 2092745082]);
    assert.equal(new SeededRandom('archive').bytes(12).toString('hex'), 'a01040d9c3de27365e0504ae');
  });

  test('repeats a sequence for the same seed and changes it for another', () => {
    const sequence = (seed: number | string) => new SeededRandom(seed).bytes(64).toString('hex');
    assert.equal(sequence(42), sequence(42));
    assert.equal(sequence('attachment'), sequence('attachment'));
    assert.notEqual(sequence(42), sequence(43));
    assert.notEqual(sequence('a'), sequence('b'));
  });

  test('gives a shorter byte run as the prefix of a longer one', () => {
    const long = new SeededRandom(5).bytes(16);
    for (const length of [0, 1, 3, 4, 7, 13]) {
      assert.deepEqual(new SeededRandom(5).bytes(length), long.subarray(0, length));
    }
  });

  test('draws integers from both ends of an inclusive range and nothing outside it', () => {
    const random = new SeededRandom(9);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(random.between(3, 7));
    assert.deepEqual([...seen].sort(), [3, 4, 5, 6, 7]);
  });
});
