import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { scanLayout } from './scan-layout';
import { createTransferDecoder } from './transfer-encoding';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ATTACHMENT_SIZE = 16 * 1024 * 1024;
const CHUNK = 64 * 1024;
/** 57 bytes make one 76-character base64 line. */
const BLOCK = 57 * 1024;

const HEAD = Buffer.from(
  [
    'From: big@x.test',
    'Subject: a 22 MB message',
    'Content-Type: multipart/mixed; boundary="big-boundary"',
    '',
    '--big-boundary',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'See the attachment.',
    '--big-boundary',
    'Content-Type: application/octet-stream; name=big.bin',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename=big.bin',
    '',
    '',
  ].join('\r\n'),
);
const TAIL = Buffer.from('\r\n--big-boundary--\r\n');

/** The attachment's bytes at [offset, offset + length): cheap and deterministic. */
function contentAt(offset: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let index = 0; index < length; index++) {
    const position = offset + index;
    bytes[index] = (position * 7 + (position >>> 10)) & 0xff;
  }
  return bytes;
}

function* contentBlocks(): Generator<Buffer> {
  for (let offset = 0; offset < ATTACHMENT_SIZE; offset += BLOCK) yield contentAt(offset, Math.min(BLOCK, ATTACHMENT_SIZE - offset));
}

/** The EML, made as it is read and cut into 64 KB chunks; `onChunk` sees each before it goes. */
function* message(onChunk: (chunk: Buffer, index: number) => void = () => undefined): Generator<Buffer> {
  const pieces = function* () {
    yield HEAD;
    let first = true;
    for (const block of contentBlocks()) {
      // BLOCK is whole lines: CRLF after each but the attachment's very last
      yield Buffer.from((first ? '' : '\r\n') + block.toString('base64').replace(/.{76}(?!$)/g, '$&\r\n'));
      first = false;
    }
    yield TAIL;
  };
  let pending = Buffer.alloc(0);
  let index = 0;
  for (const piece of pieces()) {
    pending = pending.length > 0 ? Buffer.concat([pending, piece]) : piece;
    while (pending.length >= CHUNK) {
      const chunk = pending.subarray(0, CHUNK);
      pending = pending.subarray(CHUNK);
      onChunk(chunk, index++);
      yield chunk;
    }
  }
  if (pending.length > 0) {
    onChunk(pending, index);
    yield pending;
  }
}

function memory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

describe('scanLayout on a 22 MB message', () => {
  it('streams it with heap growth far below its size', async () => {
    gc();
    const baseline = memory();
    let peak = 0;
    let size = 0;
    const layout = await scanLayout(
      Readable.from(
        message((chunk, index) => {
          size += chunk.length;
          if (index % 16 !== 0) return;
          gc();
          peak = Math.max(peak, memory() - baseline);
        }),
      ),
    );
    gc();
    const after = memory() - baseline;

    assert.ok(size > 22_000_000, `the message is ${size} bytes`);
    assert.equal(layout.size, size);
    assert.ok(peak < 8 * 1024 * 1024, `peak growth ${peak} bytes`);
    assert.ok(after < 8 * 1024 * 1024, `growth after the scan ${after} bytes`);

    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, part.contentType]),
      [['1', 'text/plain']],
    );
    assert.equal(layout.attachments.length, 1);
    const [attachment] = layout.attachments;
    assert.deepEqual([attachment.partId, attachment.filename, attachment.encoding], ['2', 'big.bin', 'base64']);
    assert.equal(attachment.end, size - TAIL.length);
    const encodedLength = Math.ceil(ATTACHMENT_SIZE / 3) * 4;
    assert.equal(attachment.end - attachment.start, encodedLength + (Math.ceil(encodedLength / 76) - 1) * 2);
  });

  it('has an attachment range that decodes to the 16 MiB content', async () => {
    const layout = await scanLayout(Readable.from(message()));
    const [attachment] = layout.attachments;
    // Cut the range out of a second pass over the stream and decode it as a download does.
    async function* range() {
      let offset = 0;
      for (const chunk of message()) {
        const from = Math.max(attachment.start - offset, 0);
        const to = Math.min(attachment.end - offset, chunk.length);
        if (from < to) yield chunk.subarray(from, to);
        offset += chunk.length;
      }
    }
    const decoded = createHash('sha256');
    let decodedLength = 0;
    for await (const piece of Readable.from(range()).pipe(createTransferDecoder(attachment.encoding))) {
      decoded.update(piece as Buffer);
      decodedLength += (piece as Buffer).length;
    }
    const expected = createHash('sha256');
    for (const block of contentBlocks()) expected.update(block);
    assert.equal(decodedLength, ATTACHMENT_SIZE);
    assert.equal(decoded.digest('hex'), expected.digest('hex'));
  });
});
