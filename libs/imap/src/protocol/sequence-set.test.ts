import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatRanges, formatSequenceSet, parseMessageSet, parseSequenceSet, rangesInSet, SAVED_RESULT, sequenceNumbers, sequenceRanges } from './sequence-set';
import { ImapCommandError } from './tokens';

describe('sequence sets', () => {
  test('parse ranges, single numbers and *', () => {
    assert.deepEqual(parseSequenceSet('2,4:7,9:*,*'), [
      { from: 2, to: 2 },
      { from: 4, to: 7 },
      { from: 9, to: '*' },
      { from: '*', to: '*' },
    ]);
  });

  test('resolve * to the largest, order reversed ranges, merge overlaps', () => {
    assert.deepEqual(sequenceRanges(parseSequenceSet('1:*'), 10), [[1, 10]]);
    assert.deepEqual(sequenceRanges(parseSequenceSet('7:4,2,3,20:*'), 10), [
      [2, 7],
      [10, 20],
    ]);
    assert.deepEqual([...sequenceNumbers(parseSequenceSet('2,4:7,5,9:*'), 10)], [2, 4, 5, 6, 7, 9, 10]);
  });

  test('a huge range costs nothing to resolve', () => {
    assert.deepEqual(sequenceRanges(parseSequenceSet('1:4294967295'), 3), [[1, 4294967295]]);
    assert.deepEqual([...sequenceNumbers(parseSequenceSet('1:4294967295'), 3)], [1, 2, 3]);
  });

  test('$ alone is the saved search result (SEARCHRES); within a set, or where only numbers go, it is refused', () => {
    assert.equal(parseMessageSet('$'), SAVED_RESULT);
    assert.deepEqual(parseMessageSet('1:2'), [{ from: 1, to: 2 }]);
    for (const bad of ['$,1', '1:$', '$$']) assert.throws(() => parseMessageSet(bad), ImapCommandError, bad);
    assert.throws(() => parseSequenceSet('$'), ImapCommandError);
  });

  test('refuses 0, empty parts and non-numbers', () => {
    for (const bad of ['', '0', '1,,2', '1:2:3', 'a', '4294967296', '-1']) assert.throws(() => parseSequenceSet(bad), ImapCommandError, bad);
  });

  test('ascending numbers format as the shortest ranges', () => {
    assert.equal(formatSequenceSet([1, 2, 3, 7, 9, 10]), '1:3,7,9:10');
    assert.equal(formatSequenceSet([4]), '4');
    assert.equal(formatSequenceSet([]), '');
  });

  test('ranges are cut to a set and written as one, however wide', () => {
    assert.deepEqual(
      rangesInSet(
        [
          [1, 1],
          [3, 4_000_000],
        ],
        parseSequenceSet('1:2,10:20,3999990:*'),
      ),
      [
        [1, 1],
        [10, 20],
        [3_999_990, 4_000_000],
      ],
    );
    assert.deepEqual(rangesInSet([[5, 9]], parseSequenceSet('1:4')), []);
    assert.equal(
      formatRanges([
        [1, 1],
        [3, 5],
      ]),
      '1,3:5',
    );
  });
});
