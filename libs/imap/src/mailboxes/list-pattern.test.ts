import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listMatcher } from './list-pattern';

describe('LIST patterns', () => {
  test('* matches anything, % anything but the delimiter, INBOX in any case', () => {
    const names = ['INBOX', 'Sent', 'Projects', 'Projects/2024', 'Archive 2023'];
    const listed = (reference: string, pattern: string) => names.filter(listMatcher(reference, pattern));
    assert.deepEqual(listed('', '*'), names);
    assert.deepEqual(listed('', '%'), ['INBOX', 'Sent', 'Projects', 'Archive 2023']);
    assert.deepEqual(listed('', 'inbox'), ['INBOX']);
    assert.deepEqual(listed('Projects/', '%'), ['Projects/2024']);
    assert.deepEqual(listed('', 'P*4'), ['Projects/2024']);
    assert.deepEqual(listed('', '*2*3'), ['Archive 2023']);
    assert.deepEqual(listed('', 'Sen'), []);
  });

  test('many wildcards cost the pattern times the name, not an exponent', () => {
    assert.equal(listMatcher('', `${'*a'.repeat(200)}b`)('a'.repeat(250)), false);
  });
});
