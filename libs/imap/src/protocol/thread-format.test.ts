import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { spacedNumbers, textPieces } from './text-pieces';
import { threadList, threadLists } from './thread-format';

describe('THREAD and SORT answers', () => {
  test('a thread is its parent then its children: an only child follows, siblings are nested lists', () => {
    assert.equal(threadList([4]), '(4)');
    assert.equal(threadList([4, 7]), '(4 7)');
    assert.equal(threadList([4, 7, 9, 2]), '(4 (7)(9)(2))');
  });

  test('threads follow one another after one space, leaving out the messages the session does not know', () => {
    assert.equal([...threadLists([3, 1, undefined, 2, undefined, 5], [3, 1, 2])].join(''), ' (3 1)(2)(5)');
    assert.equal([...threadLists([undefined, 5], [1, 1])].join(''), ' (5)');
    assert.equal([...threadLists([], [])].join(''), '');
  });

  test('a million numbers come in pieces of about 64 KiB, together the whole list', () => {
    const numbers = Array.from({ length: 1_000_000 }, (_, index) => index + 1);
    let length = 0;
    let largest = 0;
    let pieces = 0;
    let tail = '';
    for (const piece of textPieces(spacedNumbers(numbers))) {
      pieces++;
      length += piece.length;
      largest = Math.max(largest, piece.length);
      tail = (tail + piece).slice(-16);
    }
    assert.equal(
      length,
      numbers.reduce((sum, number) => sum + String(number).length + 1, 0),
    );
    assert.ok(largest < 64 * 1024 + 16, `a piece of ${largest} characters`);
    assert.ok(pieces > 100);
    assert.equal(tail.trimStart().split(' ').at(-1), '1000000');
  });
});
