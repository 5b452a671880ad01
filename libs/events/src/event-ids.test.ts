import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareEventIds, isEventId } from './event-ids';

test('an event id is a Redis stream id: two 64-bit unsigned parts joined by a dash', () => {
  for (const id of ['0-0', '1700000000000-0', '1700000000000-12', '18446744073709551615-18446744073709551615']) assert.equal(isEventId(id), true, id);
  for (const id of [
    '',
    '1',
    '1-',
    '-1',
    '1-2-3',
    'a-1',
    '1.5-0',
    ' 1-0',
    '1-0 ',
    '18446744073709551616-0',
    '0-18446744073709551616',
    '123456789012345678901-0',
  ]) {
    assert.equal(isEventId(id), false, id);
  }
});

test('ids compare by time, then by sequence, as numbers', () => {
  assert.ok(compareEventIds('9-0', '10-0') < 0, 'not as strings');
  assert.ok(compareEventIds('10-2', '10-10') < 0);
  assert.ok(compareEventIds('11-0', '10-99') > 0);
  assert.equal(compareEventIds('10-3', '10-3'), 0);
  assert.ok(compareEventIds('18446744073709551615-0', '18446744073709551614-9') > 0, 'beyond 2^53');
});
