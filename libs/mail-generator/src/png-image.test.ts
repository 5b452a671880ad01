import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { encodePng } from './png-image';

test('encodePng writes a PNG that a standard decoder reads back pixel for pixel', () => {
  // wide enough that the image data spans several stored deflate blocks
  const width = 300;
  const height = 80;
  const png = encodePng(width, height, (x, y) => [x % 256, y, (x + y) % 256]);

  assert.deepEqual(png.subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    assert.equal(png.readUInt32BE(offset + 8 + length), crc32(typeAndData));
    chunks.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
    offset += 12 + length;
  }
  assert.deepEqual(
    chunks.map((chunk) => chunk.type),
    ['IHDR', 'IDAT', 'IEND'],
  );
  assert.equal(chunks[0].data.readUInt32BE(0), width);
  assert.equal(chunks[0].data.readUInt32BE(4), height);

  const scanlines = inflateSync(chunks[1].data);
  assert.equal(scanlines.length, height * (1 + width * 3));
  const rowStart = 17 * (1 + width * 3);
  assert.equal(scanlines[rowStart], 0);
  assert.deepEqual([...scanlines.subarray(rowStart + 1 + 290 * 3, rowStart + 1 + 291 * 3)], [290 % 256, 17, 307 % 256]);
});
