import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RenderedContentCache, type RenderedContent } from './rendered-content-cache';

const content = (text: string): RenderedContent => ({ headers: [], text, html: null, truncated: false });

test('keeps recently used entries within its memory bound, evicting the least recently used', () => {
  const cache = new RenderedContentCache(8 * 1024);
  cache.set('a', content('a'.repeat(800)));
  cache.set('b', content('b'.repeat(800)));
  assert.equal(cache.get('a')?.text.length, 800, 'a is now the most recently used');
  for (const key of ['c', 'd', 'e']) cache.set(key, content(key.repeat(800)));
  assert.equal(cache.get('b'), undefined, 'b was the least recently used');
  assert.ok(cache.get('a') && cache.get('c') && cache.get('d') && cache.get('e'));
});

test('an entry too big for the cache is returned but not kept', () => {
  const cache = new RenderedContentCache(4 * 1024);
  const big = content('x'.repeat(10_000));
  assert.equal(cache.set('big', big), big);
  assert.equal(cache.get('big'), undefined);
});
