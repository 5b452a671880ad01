import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import { lengthChecked } from './length-checked';

const drain = async (chunks: Buffer[], expected: number) => {
  let bytes = 0;
  await pipeline(Readable.from(chunks), lengthChecked(expected, 'the blob'), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) bytes += chunk.length;
  });
  return bytes;
};

test('passes a stream of the promised length', async () => {
  assert.equal(await drain([Buffer.alloc(3), Buffer.alloc(4)], 7), 7);
});

test('fails a stream that ends short or runs long', async () => {
  await assert.rejects(drain([Buffer.alloc(3)], 7), /the blob ended after 3 of its recorded 7 bytes/);
  await assert.rejects(drain([Buffer.alloc(9)], 7), /the blob is longer than its recorded 7 bytes/);
});
