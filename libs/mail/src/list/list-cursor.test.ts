import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, encodeCursor } from './list-cursor';

test('a cursor round-trips its received time and id', () => {
  const cursor = { receivedAt: new Date('2026-05-01T10:11:12.345Z'), id: 987_654 };
  assert.deepEqual(decodeCursor(encodeCursor(cursor)), cursor);
});

test('anything else is not a cursor', () => {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  for (const text of ['', 'zzz', encode([1, 2, 3]), encode(['x', 1]), encode([1.5, 1]), encode([1, 0]), encode({ a: 1 }), encode([8.64e15 + 1, 1])]) {
    assert.equal(decodeCursor(text), undefined, text);
  }
});
