import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acceptedEncoding } from './compressed-answers';

test("Brotli, else gzip, as the client's Accept-Encoding allows them", () => {
  assert.equal(acceptedEncoding('gzip, deflate, br, zstd'), 'br');
  assert.equal(acceptedEncoding('gzip, deflate'), 'gzip');
  assert.equal(acceptedEncoding('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(acceptedEncoding('*'), 'br');
  assert.equal(acceptedEncoding('*;q=0, identity'), undefined);
  assert.equal(acceptedEncoding('identity'), undefined);
  assert.equal(acceptedEncoding(undefined), undefined);
});
