import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, it } from 'node:test';
import { HeadCapture, parseMessageHead } from './message-head';

/** Streams `bytes` through a HeadCapture in chunks of `size` bytes, as TCP segments would arrive. */
async function capture(bytes: Buffer, size: number): Promise<{ head: Buffer; seconds: number }> {
  const chunks = function* () {
    for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
  };
  const head = new HeadCapture();
  const started = process.hrtime.bigint();
  await pipeline(Readable.from(chunks(), { objectMode: false }), head, new Writable({ write: (_chunk, _encoding, done) => done() }));
  return { head: head.head(), seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

describe('HeadCapture', () => {
  it('finds the end of the header block when the blank line straddles chunks', async () => {
    for (const newline of ['\r\n', '\n']) {
      const message = Buffer.from(`From: a@example.test${newline}Subject: hi${newline}${newline}body${newline}`);
      for (const size of [1, 2, 3, 5, 1024]) {
        const { head } = await capture(message, size);
        assert.equal(parseMessageHead(head, message.length).subject, 'hi', `${JSON.stringify(newline)} in chunks of ${size}`);
        assert.ok(head.length <= message.length);
      }
    }
  });

  it('keeps linear work on a large header block sent a byte at a time', async () => {
    // 200 KB of header fields, one byte per chunk: searching all captured bytes per chunk
    // copied about 20 GB (minutes); each chunk searched once is a fraction of a second.
    const fields = Buffer.from(`From: a@example.test\r\n${'X-Padding: yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\r\n'.repeat(5000)}\r\nbody\r\n`);
    const { head, seconds } = await capture(fields, 1);
    assert.ok(seconds < 10, `${seconds.toFixed(1)} s`);
    assert.equal(parseMessageHead(head, fields.length).from?.address, 'a@example.test');
  });
});

describe('parseMessageHead', () => {
  const parse = (text: string | Buffer) => {
    const bytes = Buffer.from(text);
    return parseMessageHead(bytes, bytes.length);
  };

  it('reads a header block without a From, or with a From that has no address, as a message of unknown sender', () => {
    for (const from of ['', 'From: undisclosed\r\n', 'From: undisclosed-recipients:;\r\n', 'From:\r\n']) {
      const summary = parse(`${from}To: a@example.test\r\nSubject: hi\r\n\r\nbody\r\n`);
      assert.equal(summary.from, undefined, JSON.stringify(from));
      assert.equal(summary.subject, 'hi');
    }
  });

  it('refuses what has no header block: binary bytes, text or JSON without header lines, nothing at all', () => {
    assert.throws(
      () => parse(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff])),
      /not an RFC 5322 message: it does not begin with a header field/,
    );
    assert.throws(() => parse('Dear Alice, this is just text.\r\n\r\nNo headers.\r\n'), /not an RFC 5322 message: it does not begin with a header field/);
    assert.throws(() => parse('{"subject":"hello","to":"a@example.test"}'), /not an RFC 5322 message: it does not begin with a header field/);
    assert.throws(() => parse('\r\n\r\n'), /the message is empty/);
  });
});
