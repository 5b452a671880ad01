import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ReadableStream } from 'node:stream/web';
import { describe, it } from 'node:test';
import { scanLayout } from './scan-layout';
import { attachmentById, bodyById, chunks, compose, decodePart, eml, pattern, random, scanChunks, slice } from './testing/mime-fixtures';

/** A small message with every kind of line the scanner treats specially. */
const small = eml([
  'From: a@x.test',
  'Subject: =?utf-8?Q?split_me?=',
  'Content-Type: multipart/mixed;',
  '\tboundary="b1"',
  '',
  'preamble',
  '--b1',
  'Content-Type: multipart/alternative; boundary=b2',
  '',
  '--b2',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Hello =C3=A9 world, soft=',
  ' break',
  '--b2',
  'Content-Type: text/html',
  '',
  '<p>--b1 inside text is no boundary</p>',
  '--b2--',
  '--b1',
  'Content-Type: application/octet-stream; name=x.bin',
  'Content-Transfer-Encoding: base64',
  '',
  'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g',
  '--b1  ',
  'Content-Type: image/png',
  'Content-ID: <img@x>',
  '',
  '',
  '--b1--',
  'epilogue',
  '',
]);

describe('scanLayout does not depend on how the data is chunked', () => {
  it('gives the same layout for a buffer and for a two-piece stream split at every point', async () => {
    const whole = await scanLayout(small);
    assert.equal(whole.bodies.length, 2);
    assert.equal(whole.attachments.length, 2);
    for (let split = 0; split <= small.length; split++) {
      const layout = await scanChunks([small.subarray(0, split), small.subarray(split)]);
      assert.deepEqual(layout, whole, `split at ${split} (${JSON.stringify(small.toString('latin1', split - 3, split + 3))})`);
    }
  });

  it('splits inside every CRLF and inside every boundary line (three pieces)', async () => {
    const whole = await scanLayout(small);
    const text = small.toString('latin1');
    const points: number[] = [];
    for (let index = text.indexOf('\r\n'); index !== -1; index = text.indexOf('\r\n', index + 1)) points.push(index + 1);
    for (let index = text.indexOf('--b'); index !== -1; index = text.indexOf('--b', index + 1)) {
      for (let offset = 0; offset <= 8; offset++) points.push(index + offset);
    }
    assert.ok(points.length > 100);
    for (const first of points) {
      for (const second of [first + 1, first + 2, first + 5]) {
        const layout = await scanChunks([small.subarray(0, first), small.subarray(first, second), small.subarray(second)]);
        assert.deepEqual(layout, whole, `split at ${first} and ${second}`);
      }
    }
  });

  it('gives the same layout byte by byte', async () => {
    assert.deepEqual(await scanChunks(chunks(small, [1])), await scanLayout(small));
  });

  it('gives the same layout with LF-only line ends at every split point', async () => {
    const lf = Buffer.from(small.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
    const whole = await scanLayout(lf);
    assert.deepEqual(
      whole.bodies.map((part) => slice(lf, part).toString()),
      ['Hello =C3=A9 world, soft=\n break', '<p>--b1 inside text is no boundary</p>'],
    );
    for (let split = 0; split <= lf.length; split++) {
      assert.deepEqual(await scanChunks([lf.subarray(0, split), lf.subarray(split)]), whole, `split at ${split}`);
    }
  });

  it('records the exact ranges of the small message', async () => {
    const layout = await scanLayout(small);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, slice(small, part).toString()]),
      [
        ['1.1', 'Hello =C3=A9 world, soft=\r\n break'],
        ['1.2', '<p>--b1 inside text is no boundary</p>'],
      ],
    );
    assert.deepEqual(
      layout.attachments.map((part) => [part.partId, part.disposition, slice(small, part).toString()]),
      [
        ['2', 'attachment', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g'],
        // an empty body: the blank line after the headers, then the delimiter's own CRLF
        ['3', 'inline', ''],
      ],
    );
    assert.ok((await decodePart(small, attachmentById(layout, '2'))).equals(Buffer.from(Array.from({ length: 33 }, (_, index) => index))));
  });
});

describe('scanLayout on a big message in random chunks', () => {
  const longHtml = '<div>' + 'a long line of html without any line break, '.repeat(1500) + '</div>';

  const build = async () => {
    const composed = await compose({
      from: 'a@x.test',
      subject: 'big',
      text: 'Text body\r\n'.repeat(2000),
      attachments: [
        { filename: 'one.bin', content: pattern(300_000, 5) },
        { filename: 'two.txt', content: 'quoted = printable\r\n'.repeat(5000), contentTransferEncoding: 'quoted-printable' },
      ],
    });
    // An 8bit html part whose one line (~67 KB) is longer than the scanner keeps of a line,
    // so it always spans chunks; the delimiter right after it must still end it exactly.
    const text = composed.toString('latin1');
    const boundary = /boundary="([^"]+)"/.exec(text)?.[1] as string;
    const closing = `\r\n--${boundary}--`;
    const extra = `\r\n--${boundary}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${longHtml}`;
    return Buffer.from(text.replace(closing, extra + closing), 'latin1');
  };

  it('is the same for random chunk sizes, and its ranges are right', async () => {
    const message = await build();
    const whole = await scanLayout(message);
    assert.equal(slice(message, bodyById(whole, '4')).toString(), longHtml);
    assert.equal(slice(message, bodyById(whole, '1')).toString(), 'Text body\r\n'.repeat(2000));
    assert.ok((await decodePart(message, attachmentById(whole, '2'))).equals(pattern(300_000, 5)));
    assert.equal((await decodePart(message, attachmentById(whole, '3'))).toString(), 'quoted = printable\r\n'.repeat(5000));

    const next = random(42);
    for (const maxChunk of [16, 100, 4096, 20_000, 70_000]) {
      const sizes = Array.from({ length: 997 }, () => 1 + Math.floor(next() * maxChunk));
      assert.deepEqual(await scanChunks(chunks(message, sizes)), whole, `chunks up to ${maxChunk}`);
    }
  });
});

describe('scanLayout cuts overlong lines the same way however they arrive', () => {
  it('reads a header line longer than the line limit alike from a buffer and from chunks', async () => {
    const message = eml([
      `Content-Type: multipart/mixed; x-padding="${'p'.repeat(20_000)}"; boundary=late`,
      '',
      '--late',
      'Content-Type: text/plain',
      '',
      'part',
      '--late--',
    ]);
    const whole = await scanLayout(message);
    for (const size of [1, 1000, 16 * 1024, 65536]) assert.deepEqual(await scanChunks(chunks(message, [size])), whole, `chunks of ${size}`);
    // past the limit the boundary parameter is lost: the multipart is shown as text
    assert.deepEqual(
      whole.bodies.map((part) => [part.partId, part.start, part.end]),
      [['1', whole.headerEnd, message.length]],
    );
  });

  it('reads a body line longer than the line limit that looks like a delimiter alike', async () => {
    const message = eml(['Content-Type: multipart/mixed; boundary=b', '', '--b', '', 'text', `--b${' '.repeat(20_000)}x`, 'more', '--b--']);
    const whole = await scanLayout(message);
    for (const size of [1000, 65536]) assert.deepEqual(await scanChunks(chunks(message, [size])), whole, `chunks of ${size}`);
  });
});

describe('scanLayout stream sources', () => {
  it('accepts Uint8Array chunks, as a web stream gives them', async () => {
    const pieces = chunks(small, [17]).map((piece) => new Uint8Array(piece));
    assert.deepEqual(await scanLayout(Readable.from(pieces)), await scanLayout(small));
  });

  it('accepts a web ReadableStream adapted with Readable.fromWeb', async () => {
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of chunks(small, [50])) controller.enqueue(new Uint8Array(piece));
        controller.close();
      },
    });
    assert.deepEqual(await scanLayout(Readable.fromWeb(web)), await scanLayout(small));
  });

  it('accepts string chunks', async () => {
    // the small message is ASCII, so its strings are its bytes
    assert.equal(small.toString('latin1'), small.toString('utf8'));
    const pieces = chunks(small, [33]).map((piece) => piece.toString());
    assert.deepEqual(await scanLayout(Readable.from(pieces)), await scanLayout(small));
  });

  it('accepts an empty stream', async () => {
    assert.deepEqual(await scanLayout(Readable.from([])), await scanLayout(Buffer.alloc(0)));
  });
});
