import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { probeDecoded, sliceOf } from './decoded-slice';

const chunked = (...pieces: string[]) => Readable.from(pieces.map((piece) => Buffer.from(piece)));

async function slice(stream: Readable, start: number, end: number): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of sliceOf(stream, { start, end })) pieces.push(piece);
  return Buffer.concat(pieces).toString();
}

describe('decoded content, streamed', () => {
  test('probeDecoded counts the bytes and finds a NUL in any chunk', async () => {
    assert.deepEqual(await probeDecoded(chunked('abc', 'de')), { length: 5, containsNul: false });
    assert.deepEqual(await probeDecoded(chunked('abc', 'd\0e', 'f')), { length: 7, containsNul: true });
    assert.deepEqual(await probeDecoded(chunked()), { length: 0, containsNul: false });
  });

  test('sliceOf gives [start, end) across chunk boundaries', async () => {
    assert.equal(await slice(chunked('abc', 'def', 'ghi'), 2, 7), 'cdefg');
    assert.equal(await slice(chunked('abc', 'def', 'ghi'), 3, 6), 'def');
    assert.equal(await slice(chunked('abc', 'def'), 0, 100), 'abcdef');
    assert.equal(await slice(chunked('abc', 'def'), 10, 20), '');
  });

  test('sliceOf stops reading once past the end, destroying its source', async () => {
    let made = 0;
    const source = new Readable({
      read() {
        made++;
        this.push(Buffer.from('0123456789'));
      },
    });
    assert.equal(await slice(source, 5, 25), '56789012345678901234');
    assert.ok(source.destroyed);
    assert.ok(made <= 4, `made ${made} chunks`);
  });
});
