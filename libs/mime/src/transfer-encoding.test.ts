import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { decodeQuotedPrintable, QuotedPrintableDecoder } from './quoted-printable';
import { chunks, pattern, random } from './testing/mime-fixtures';
import { createTransferDecoder, decodeTransfer, isIdentityTransferEncoding, isKnownTransferEncoding } from './transfer-encoding';

async function streamDecode(encoding: string, pieces: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const piece of Readable.from(pieces).pipe(createTransferDecoder(encoding))) out.push(piece as Buffer);
  return Buffer.concat(out);
}

const qp = (text: string) => decodeQuotedPrintable(Buffer.from(text, 'latin1')).toString('latin1');

/** Every construct the decoder treats specially, CRLF and LF lines alike. */
const sample = Buffer.from(
  [
    'plain line\r\n',
    'soft=\r\n',
    'break and trailing spaces   \r\n',
    'tabs\t\t\r\n',
    'space before soft break =\r\n',
    'padding after soft break=  \r\n',
    'upper =C3=A9 lower =c3=a9 mixed =C3=a9\r\n',
    'malformed =G1 =4 = =\tx ==41 =3\r\n',
    'LF only=\n',
    'line\n',
    'bare\rCR =0D=0A encoded\r\n',
    '=\r\n',
    '\r\n',
    'ends with equals =',
  ].join(''),
  'latin1',
);

describe('decodeQuotedPrintable', () => {
  it('decodes =XX in upper and lower case', () => {
    assert.equal(qp('=3D=3d=41=6a'), '==Aj');
    assert.deepEqual([...decodeQuotedPrintable(Buffer.from('=C3=a9=FF=00'))], [0xc3, 0xa9, 0xff, 0x00]);
  });

  it('joins lines at soft line breaks, CRLF or LF', () => {
    assert.equal(qp('soft=\r\nbreak'), 'softbreak');
    assert.equal(qp('soft=\nbreak'), 'softbreak');
    assert.equal(qp('a=\r\n=\r\nb'), 'ab');
    assert.equal(qp('trailing padding=  \t\r\nok'), 'trailing paddingok');
  });

  it('keeps hard line breaks as they are', () => {
    assert.equal(qp('a\r\nb\nc\r\n'), 'a\r\nb\nc\r\n');
  });

  it('drops trailing white space, keeps white space before a soft break', () => {
    assert.equal(qp('abc   \r\nnext \t'), 'abc\r\nnext');
    assert.equal(qp('abc =\r\nnext'), 'abc next');
    assert.equal(qp('a=20\r\n'), 'a \r\n');
  });

  it('keeps malformed = sequences literally', () => {
    assert.equal(qp('=G1'), '=G1');
    assert.equal(qp('=4'), '=4');
    assert.equal(qp('=4\r\n'), '=4\r\n');
    assert.equal(qp('a = b'), 'a = b');
    assert.equal(qp('==41'), '=A');
    assert.equal(qp('=\u00e9'), '=\u00e9');
    assert.equal(qp('100%=z'), '100%=z');
  });

  it('takes = at the end of data as a soft break', () => {
    assert.equal(qp('end='), 'end');
  });

  it('decodes the empty input', () => {
    assert.equal(decodeQuotedPrintable(Buffer.alloc(0)).length, 0);
  });
});

describe('QuotedPrintableDecoder', () => {
  it('gives what decodeQuotedPrintable gives on the whole buffer, for every two-piece split', async () => {
    const expected = decodeQuotedPrintable(sample);
    for (let split = 0; split <= sample.length; split++) {
      const decoded = await streamDecode('quoted-printable', [sample.subarray(0, split), sample.subarray(split)]);
      assert.ok(decoded.equals(expected), `split at ${split}: ${JSON.stringify(decoded.toString('latin1'))}`);
    }
  });

  it('gives the same for every three-piece split', async () => {
    const expected = decodeQuotedPrintable(sample);
    for (let first = 0; first <= sample.length; first++) {
      for (let second = first; second <= Math.min(sample.length, first + 6); second++) {
        const pieces = [sample.subarray(0, first), sample.subarray(first, second), sample.subarray(second)];
        assert.ok((await streamDecode('quoted-printable', pieces)).equals(expected), `split at ${first}, ${second}`);
      }
    }
  });

  it('gives the same byte by byte', async () => {
    assert.ok((await streamDecode('quoted-printable', chunks(sample, [1]))).equals(decodeQuotedPrintable(sample)));
  });

  it('gives the same on random QP-like input in random chunks', async () => {
    const next = random(7);
    const alphabet = ['=', '=', '3', 'D', 'a', 'F', 'g', ' ', '\t', '\r', '\n', '\r\n', '=\r\n', '=\n'];
    for (let round = 0; round < 400; round++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 60) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const input = Buffer.from(text, 'latin1');
      const sizes = Array.from({ length: 5 }, () => 1 + Math.floor(next() * 8));
      const decoded = await streamDecode('quoted-printable', chunks(input, sizes));
      assert.ok(decoded.equals(decodeQuotedPrintable(input)), `${JSON.stringify(text)} in chunks of ${sizes}`);
    }
  });

  it('joins a soft break cut between its =, CR and LF across chunks, and an =XX cut in two', async () => {
    const pieces = ['Caf=', 'C3=A9 soft=', '\r', '\nbreak =', '\r\n', 'end=3', 'D\r\n'];
    assert.equal(
      (
        await streamDecode(
          'quoted-printable',
          pieces.map((piece) => Buffer.from(piece)),
        )
      ).toString(),
      'Café softbreak end=\r\n',
    );
  });

  it('does not hold a line that never ends', async () => {
    const line = Buffer.from('=41b'.repeat(256 * 1024)); // 1 MB, no line break
    const decoder = new QuotedPrintableDecoder();
    let before = 0;
    decoder.on('data', (piece: Buffer) => (before += piece.length));
    for (const piece of chunks(line, [64 * 1024])) decoder.write(piece);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(before >= 512 * 1024 - 16, `decoded ${before} bytes before the end`);
    const rest: Buffer[] = [];
    decoder.removeAllListeners('data');
    decoder.on('data', (piece: Buffer) => rest.push(piece));
    await new Promise((resolve) => decoder.end(resolve));
    assert.equal(before + Buffer.concat(rest).length, 512 * 1024);
  });
});

describe('base64 decoding', () => {
  it('streams binary back exactly, whatever the chunking', async () => {
    const content = pattern(10_000, 3);
    const encoded = Buffer.from(content.toString('base64').replace(/.{76}/g, '$&\r\n'));
    for (const sizes of [[1], [3], [77, 5], [4096]]) {
      assert.ok((await streamDecode('base64', chunks(encoded, sizes))).equals(content), `chunks ${sizes}`);
    }
    assert.ok(decodeTransfer(encoded, 'base64').equals(content));
  });

  it('decodes input whose every line is padded, in memory as in the stream', async () => {
    const encoded = Buffer.from(['Hello', ' ', 'world'].map((word) => Buffer.from(word).toString('base64')).join('\r\n'));
    assert.match(encoded.toString(), /=\r\n/);
    assert.equal((await streamDecode('base64', [encoded])).toString(), 'Hello world');
    assert.equal(decodeTransfer(encoded, 'BASE64').toString(), 'Hello world');
  });

  it('skips characters outside the alphabet, in memory as in the stream', async () => {
    const encoded = Buffer.from('SGVs!!bG8g\u00e9\u00e9d2\r\n9y*bGQ=\r\n', 'latin1');
    assert.equal(decodeTransfer(encoded, 'base64').toString(), 'Hello world');
    assert.equal((await streamDecode('base64', chunks(encoded, [2]))).toString(), 'Hello world');
  });

  it('joins quartets and skips line breaks cut anywhere across chunks: CR and LF apart, padding alone', async () => {
    const encoded = Buffer.from('AAEC\r\nAwQF\r\nBg==\r\nBwg=\r\n');
    const expected = Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    for (const pieces of [
      ['AAEC\r', '\nAw', 'QF\r\n', 'Bg=', '=\r\nBwg', '=\r\n'],
      ['AA', 'EC\r\nA', 'wQF\r\nBg==', '\r\nB', 'wg=\r\n'],
    ]) {
      assert.equal(pieces.join(''), encoded.toString());
      assert.ok(
        (
          await streamDecode(
            'base64',
            pieces.map((piece) => Buffer.from(piece)),
          )
        ).equals(expected),
        pieces.join('|'),
      );
    }
  });

  it('decodes what there is of truncated input', async () => {
    const encoded = Buffer.from(Buffer.from('Hello world').toString('base64').slice(0, 10));
    assert.equal(decodeTransfer(encoded, 'base64').toString(), 'Hello w');
    assert.equal((await streamDecode('base64', [encoded])).toString(), 'Hello w');
  });
});

describe('other transfer encodings', () => {
  it('passes 7bit, 8bit, binary and unknown encodings through', async () => {
    const bytes = pattern(1000);
    for (const encoding of ['7bit', '8bit', 'binary', 'x-uuencode', '']) {
      assert.ok((await streamDecode(encoding, chunks(bytes, [33]))).equals(bytes), encoding);
      assert.ok(decodeTransfer(bytes, encoding).equals(bytes), encoding);
    }
  });

  it('tells the encodings it undoes, and those that leave bytes as they are', () => {
    for (const encoding of ['base64', 'Quoted-Printable', '7bit', '8BIT', 'binary', '']) assert.ok(isKnownTransferEncoding(encoding), encoding);
    for (const encoding of ['x-uuencode', 'uuencode', 'base-64']) assert.ok(!isKnownTransferEncoding(encoding), encoding);
    assert.deepEqual(['7bit', '8bit', 'Binary', '', 'base64', 'quoted-printable'].map(isIdentityTransferEncoding), [true, true, true, true, false, false]);
  });

  it('matches encodings case-insensitively', async () => {
    assert.equal((await streamDecode('Quoted-Printable', [Buffer.from('a=3Db')])).toString(), 'a=b');
    assert.equal(decodeTransfer(Buffer.from('a=3Db'), 'QUOTED-PRINTABLE').toString(), 'a=b');
  });
});
