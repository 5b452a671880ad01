import { crc32 } from 'node:zlib';

export type Rgb = readonly [red: number, green: number, blue: number];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_STORED_BLOCK = 0xffff;

/**
 * A valid RGB PNG whose image data is deflate-"stored" rather than compressed: a browser shows
 * it like any other, and its bytes cannot shift with the zlib build Node ships.
 */
export function encodePng(width: number, height: number, colorAt: (x: number, y: number) => Rgb): Buffer {
  const rowLength = 1 + width * 3;
  const scanlines = Buffer.alloc(rowLength * height);
  for (let y = 0; y < height; y++) {
    // each row starts with filter type 0 (none), already zero
    for (let x = 0; x < width; x++) {
      scanlines.set(colorAt(x, y), y * rowLength + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, deflate, adaptive filtering, no interlace
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', storedZlibStream(scanlines)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

function storedZlibStream(data: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([0x78, 0x01])];
  for (let offset = 0; offset < data.length; offset += MAX_STORED_BLOCK) {
    const block = data.subarray(offset, offset + MAX_STORED_BLOCK);
    const blockHeader = Buffer.alloc(5);
    blockHeader[0] = offset + MAX_STORED_BLOCK >= data.length ? 1 : 0;
    blockHeader.writeUInt16LE(block.length, 1);
    blockHeader.writeUInt16LE(~block.length & 0xffff, 3);
    parts.push(blockHeader, block);
  }
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler32(data));
  parts.push(trailer);
  return Buffer.concat(parts);
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
