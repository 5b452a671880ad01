import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseByteRange } from './byte-range';
import { contentDisposition } from './content-disposition';

test('byte ranges follow RFC 9110', () => {
  assert.equal(parseByteRange(undefined, 1000), undefined);
  assert.deepEqual(parseByteRange('bytes=0-99', 1000), { start: 0, end: 100 });
  assert.deepEqual(parseByteRange('bytes=900-', 1000), { start: 900, end: 1000 });
  assert.deepEqual(parseByteRange('bytes=-100', 1000), { start: 900, end: 1000 });
  assert.deepEqual(parseByteRange('bytes=-5000', 1000), { start: 0, end: 1000 });
  assert.deepEqual(parseByteRange('bytes=990-5000', 1000), { start: 990, end: 1000 });
  assert.equal(parseByteRange('bytes=1000-', 1000), 'unsatisfiable');
  assert.equal(parseByteRange('bytes=50-10', 1000), 'unsatisfiable');
  assert.equal(parseByteRange('bytes=-0', 1000), 'unsatisfiable');
  assert.equal(parseByteRange('bytes=0-1,5-9', 1000), undefined, 'several ranges: the whole body');
  assert.equal(parseByteRange('items=0-1', 1000), undefined);
});

test('content disposition carries an ASCII fallback and the UTF-8 name', () => {
  assert.equal(
    contentDisposition('attachment', '보고서 2026.csv'),
    `attachment; filename="___ 2026.csv"; filename*=UTF-8''%EB%B3%B4%EA%B3%A0%EC%84%9C%202026.csv`,
  );
  assert.equal(
    contentDisposition('inline', 'a "quoted" (name).png'),
    `inline; filename="a _quoted_ (name).png"; filename*=UTF-8''a%20%22quoted%22%20%28name%29.png`,
  );
});
