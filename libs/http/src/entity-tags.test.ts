import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ifNoneMatchHits } from './entity-tags';

describe('ifNoneMatchHits', () => {
  const etag = '"7.42"';

  test('no header matches nothing', () => {
    assert.equal(ifNoneMatchHits(undefined, etag), false);
  });

  test('the same tag, or its weak form, matches (the weak comparison)', () => {
    assert.equal(ifNoneMatchHits('"7.42"', etag), true);
    assert.equal(ifNoneMatchHits('W/"7.42"', etag), true);
    assert.equal(ifNoneMatchHits('"7.42"', 'W/"7.42"'), true);
  });

  test('another tag does not match', () => {
    assert.equal(ifNoneMatchHits('"7.41"', etag), false);
    assert.equal(ifNoneMatchHits('"8.42"', etag), false);
  });

  test('a list matches when any of its tags does', () => {
    assert.equal(ifNoneMatchHits('"1.1", W/"7.42" ,"9.9"', etag), true);
    assert.equal(ifNoneMatchHits('"1.1", "9.9"', etag), false);
  });

  test('* matches any current representation', () => {
    assert.equal(ifNoneMatchHits('*', etag), true);
    assert.equal(ifNoneMatchHits(' * ', etag), true);
  });

  test('an unquoted or malformed value matches nothing', () => {
    assert.equal(ifNoneMatchHits('7.42', etag), false);
    assert.equal(ifNoneMatchHits('', etag), false);
    assert.equal(ifNoneMatchHits('"7.42', etag), false);
  });
});
