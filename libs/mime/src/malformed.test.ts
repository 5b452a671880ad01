import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHeaderBlock, summarizeHeaders } from './header-block';
import type { ScannedLayout } from './layout';
import { renderBodies } from './render-body';
import { scanLayout } from './scan-layout';
import { chunks, decodePart, eml, pattern, scanChunks, slice } from './testing/mime-fixtures';

/** Scans as a buffer and as a chunked stream; both must agree, and the ranges be sane. */
async function scan(message: Buffer, sizes = [5, 1, 13, 2]): Promise<ScannedLayout> {
  const layout = await scanLayout(message);
  assert.deepEqual(await scanChunks(chunks(message, sizes)), layout, 'chunked stream gives the same layout');
  assert.equal(layout.size, message.length);
  assert.ok(layout.headerEnd >= 0 && layout.headerEnd <= message.length);
  for (const part of [...layout.bodies, ...layout.attachments]) {
    assert.ok(layout.headerEnd <= part.start && part.start <= part.end && part.end <= message.length, JSON.stringify(part));
  }
  return layout;
}

function shown(message: Buffer, layout: ScannedLayout) {
  return renderBodies(
    layout.bodies,
    layout.bodies.map((part) => slice(message, part)),
  );
}

describe('scanLayout on malformed input', () => {
  it('reads empty input as an empty text message', async () => {
    const layout = await scan(Buffer.alloc(0));
    assert.deepEqual(layout, {
      headerEnd: 0,
      bodies: [{ partId: '1', contentType: 'text/plain', charset: 'us-ascii', encoding: '7bit', start: 0, end: 0 }],
      attachments: [],
      size: 0,
      tree: { type: 'text/plain', header: 0, body: 0, end: 0, lines: 0, envelope: {} },
    });
  });

  it('reads headers without a blank line as all header, with an empty body', async () => {
    for (const message of [eml(['From: a@x.test', 'Subject: only headers']), eml(['From: a@x.test', 'Subject: only headers', ''])]) {
      const layout = await scan(message);
      assert.equal(layout.headerEnd, message.length);
      assert.deepEqual(
        layout.bodies.map((part) => [part.start, part.end]),
        [[message.length, message.length]],
      );
      assert.equal(summarizeHeaders(parseHeaderBlock(slice(message, { start: 0, end: layout.headerEnd }))).subject, 'only headers');
    }
  });

  it('reads a message without Content-Type as us-ascii text/plain', async () => {
    const message = eml(['From: a@x.test', '', 'Plain body', 'second line']);
    const layout = await scan(message);
    assert.deepEqual(layout.bodies, [{ partId: '1', contentType: 'text/plain', charset: 'us-ascii', encoding: '7bit', start: 18, end: message.length }]);
    assert.equal(shown(message, layout).text, 'Plain body\r\nsecond line');
  });

  it('reads a message with an empty or invalid Content-Type as text/plain (RFC 2045 5.2)', async () => {
    for (const type of ['', 'text', 'text/', 'plain text; charset=utf-8', '/html']) {
      const message = eml([`Content-Type: ${type}`, '', 'Body']);
      const layout = await scan(message);
      assert.deepEqual(
        layout.bodies.map((part) => [part.partId, part.contentType]),
        [['1', 'text/plain']],
        type,
      );
      assert.deepEqual(layout.attachments, []);
      assert.equal(shown(message, layout).text, 'Body');
    }
  });

  it('reads LF-only line ends', async () => {
    const message = eml(
      [
        'Content-Type: multipart/alternative; boundary=lf',
        '',
        '--lf',
        'Content-Type: text/plain',
        '',
        'line one',
        'line two',
        '--lf',
        'Content-Type: text/html',
        '',
        '<p>html</p>',
        '--lf--',
        '',
      ],
      '\n',
    );
    const layout = await scan(message);
    assert.equal(layout.headerEnd, 'Content-Type: multipart/alternative; boundary=lf\n\n'.length);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, slice(message, part).toString()]),
      [
        ['1', 'line one\nline two'],
        ['2', '<p>html</p>'],
      ],
    );
  });

  it('reads mixed CRLF and LF line ends', async () => {
    const message = Buffer.from('Content-Type: multipart/mixed; boundary=m\n\r\n--m\nContent-Type: text/plain\r\n\nmixed\r\n--m--\n');
    const layout = await scan(message);
    assert.deepEqual(
      layout.bodies.map((part) => slice(message, part).toString()),
      ['mixed'],
    );
  });

  it('shows a multipart whose boundary never appears as text', async () => {
    const message = eml(['Content-Type: multipart/mixed; boundary="never"', '', 'Hello, this is', '--not-the-boundary', 'the body']);
    const layout = await scan(message);
    assert.deepEqual(layout.attachments, []);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, part.contentType]),
      [['1', 'text/plain']],
    );
    assert.equal(shown(message, layout).text, 'Hello, this is\r\n--not-the-boundary\r\nthe body');
  });

  it('shows a multipart without a boundary parameter as text', async () => {
    const message = eml(['Content-Type: multipart/alternative', '', 'text anyway']);
    const layout = await scan(message);
    assert.equal(shown(message, layout).text, 'text anyway');
  });

  it('shows a nested multipart whose boundary never appears as text, numbered as the part it is', async () => {
    const message = eml([
      'Content-Type: multipart/mixed; boundary=o',
      '',
      '--o',
      'Content-Type: multipart/alternative; boundary=lost',
      '',
      'inner text',
      '--o',
      'Content-Type: text/plain',
      '',
      'second',
      '--o--',
    ]);
    const layout = await scan(message);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, slice(message, part).toString()]),
      [
        ['1', 'inner text'],
        ['2', 'second'],
      ],
    );
  });

  it('ends the parts at the end of data when the closing boundary is missing', async () => {
    const content = pattern(2000, 9);
    const message = eml([
      'Content-Type: multipart/mixed; boundary=open',
      '',
      '--open',
      'Content-Type: text/plain',
      '',
      'text part',
      '--open',
      'Content-Type: application/octet-stream',
      'Content-Transfer-Encoding: base64',
      '',
      content.toString('base64').replace(/.{76}/g, '$&\r\n'),
      '',
    ]);
    const layout = await scan(message);
    assert.deepEqual(
      layout.bodies.map((part) => slice(message, part).toString()),
      ['text part'],
    );
    assert.equal(layout.attachments.length, 1);
    assert.equal(layout.attachments[0].end, message.length);
    assert.ok((await decodePart(message, layout.attachments[0])).equals(content));
  });

  it('ends a base64 attachment truncated mid-line at the end of data, decoding what is there', async () => {
    const content = pattern(5000, 4);
    const full = eml([
      'Content-Type: multipart/mixed; boundary=t',
      '',
      '--t',
      'Content-Type: image/png; name=cut.png',
      'Content-Transfer-Encoding: base64',
      '',
      content.toString('base64').replace(/.{76}/g, '$&\r\n'),
      '--t--',
    ]);
    const message = full.subarray(0, Math.floor(full.length / 2) + 3);
    const layout = await scan(message);
    assert.equal(layout.attachments.length, 1);
    const part = layout.attachments[0];
    assert.equal(part.filename, 'cut.png');
    assert.equal(part.end, message.length);
    const decoded = await decodePart(message, part);
    assert.ok(decoded.length > 2000 && decoded.length < content.length);
    assert.ok(decoded.equals(content.subarray(0, decoded.length)), 'a prefix of the content');
  });

  it('stops inside part headers cut off by the end of data', async () => {
    const message = eml(['Content-Type: multipart/mixed; boundary=h', '', '--h', 'Content-Type: text/plain', 'Content-Transf']);
    const layout = await scan(message);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, part.start, part.end]),
      [['1', message.length, message.length]],
    );
  });

  it('skips invalid base64 characters', async () => {
    const message = eml([
      'Content-Type: multipart/mixed; boundary=x',
      '',
      '--x',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      'SGVs!!bG8g\u00e9\u00e9d2',
      '9y*bGQ=',
      '--x',
      'Content-Type: application/octet-stream',
      'Content-Transfer-Encoding: base64',
      '',
      'AAEC$$$AwQF',
      '#BgcI',
      '--x--',
    ]);
    const layout = await scan(message);
    assert.equal(shown(message, layout).text, 'Hello world');
    assert.deepEqual([...(await decodePart(message, layout.attachments[0]))], [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('decodes a body in an unknown charset as UTF-8', async () => {
    const message = eml(['Content-Type: text/plain; charset=x-made-up-charset', 'Content-Transfer-Encoding: 8bit', '', 'Grüße']);
    const layout = await scan(message);
    assert.equal(layout.bodies[0].charset, 'x-made-up-charset');
    assert.equal(shown(message, layout).text, 'Grüße');
  });

  it('decodes latin1 and other declared charsets', async () => {
    const latin1 = Buffer.concat([Buffer.from('Content-Type: text/plain; charset="ISO-8859-1"\r\n\r\n'), Buffer.from('Grüße', 'latin1')]);
    assert.equal(shown(latin1, await scan(latin1)).text, 'Grüße');
    const koi8 = eml(['Content-Type: text/plain; charset=koi8-r', 'Content-Transfer-Encoding: quoted-printable', '', '=F0=D2=C9=D7=C5=D4']);
    assert.equal(shown(koi8, await scan(koi8)).text, 'Привет');
  });

  it('reads raw 8-bit header bytes that are not UTF-8 as latin1', async () => {
    const message = Buffer.concat([
      Buffer.from('Subject: Caf', 'latin1'),
      Buffer.from([0xe9, 0x20, 0xff]),
      Buffer.from('\r\nFrom: Jos\u00e9 <jose@x.test>\r\nContent-Type: text/plain; name="r\u00e9sum\u00e9.txt"\r\n\r\nbody', 'latin1'),
    ]);
    const layout = await scan(message);
    const summary = summarizeHeaders(parseHeaderBlock(slice(message, { start: 0, end: layout.headerEnd })));
    assert.equal(summary.subject, 'Café ÿ');
    assert.deepEqual(summary.from, { name: 'José', address: 'jose@x.test' });
    assert.equal(layout.attachments[0].filename, 'résumé.txt');
  });

  it('follows 35 levels of nested multipart and numbers the innermost part', async () => {
    const depth = 35;
    const lines: string[] = [];
    for (let level = 0; level < depth; level++) lines.push(`Content-Type: multipart/mixed; boundary=level${level}`, '', `--level${level}`);
    lines.push('Content-Type: text/plain', '', 'deep text');
    for (let level = depth - 1; level >= 0; level--) lines.push(`--level${level}--`);
    const message = eml(lines);
    const layout = await scan(message);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, slice(message, part).toString()]),
      [[Array(depth).fill('1').join('.'), 'deep text']],
    );
  });

  it('terminates on 5000 levels of nested multipart without blowing the stack', async () => {
    const depth = 5000;
    const lines: string[] = [];
    for (let level = 0; level < depth; level++) lines.push(`Content-Type: multipart/mixed; boundary=l${level}`, '', `--l${level}`);
    lines.push('Content-Type: text/plain', '', 'deep text');
    for (let level = depth - 1; level >= 0; level--) lines.push(`--l${level}--`);
    const message = eml(lines);
    const started = Date.now();
    const layout = await scanLayout(message);
    assert.ok(Date.now() - started < 2000);
    // Beyond the depth limit the rest is one opaque part, shown as the text it is.
    assert.equal(layout.bodies.length, 1);
    assert.equal(layout.attachments.length, 0);
    assert.ok(slice(message, layout.bodies[0]).toString().includes('deep text'));
    assert.ok(layout.bodies[0].partId.split('.').length < 50);
  });

  it('reads a 1 MB line without any newline as the body, and as a header', async () => {
    const line = 'x'.repeat(1024 * 1024);
    const body = Buffer.from(`Subject: long\r\n\r\n${line}`);
    const layout = await scan(body, [4093, 1]);
    assert.deepEqual(
      layout.bodies.map((part) => [part.start, part.end]),
      [[17, body.length]],
    );

    const header = Buffer.from(`X-Long: ${line}`);
    const headerLayout = await scan(header, [4093, 1]);
    assert.equal(headerLayout.headerEnd, header.length);
    assert.equal(parseHeaderBlock(slice(header, { start: 0, end: 16 * 1024 })).length, 1);
  });

  it('ends a part exactly at the delimiter after a line longer than a chunk', async () => {
    const line = 'y'.repeat(200_000);
    const message = eml([
      'Content-Type: multipart/mixed; boundary=z',
      '',
      '--z',
      'Content-Type: text/html',
      '',
      line,
      '--z',
      'Content-Type: text/plain',
      '',
      'after',
      '--z--',
    ]);
    for (const size of [1000, 65536]) {
      const layout = await scanChunks(chunks(message, [size]));
      assert.deepEqual(
        layout.bodies.map((part) => slice(message, part).toString()),
        [line, 'after'],
        `chunks of ${size}`,
      );
    }
  });

  it('ends a part that has no blank line at the next delimiter (RFC 2046 allows an empty body)', async () => {
    const message = eml([
      'Content-Type: multipart/mixed; boundary=n',
      '',
      '--n',
      'Content-Type: text/plain',
      '--n',
      '--n',
      'Content-Type: text/html',
      '',
      '<p>shown</p>',
      '--n',
      'Content-Type: image/png; name=last.png',
      '--n--',
    ]);
    const layout = await scan(message);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, part.contentType, slice(message, part).toString()]),
      [
        ['1', 'text/plain', ''],
        ['2', 'text/plain', ''],
        ['3', 'text/html', '<p>shown</p>'],
      ],
    );
    const beforeClose = message.indexOf('\r\n--n--');
    assert.deepEqual(
      layout.attachments.map((part) => [part.partId, part.filename, part.start, part.end]),
      [['4', 'last.png', beforeClose, beforeClose]],
    );
  });

  it('accepts transport padding after a delimiter and ignores lines that only start like one', async () => {
    const message = eml([
      'Content-Type: multipart/mixed; boundary=pad',
      '',
      '--pad \t ',
      'Content-Type: text/plain',
      '',
      '--padding is text',
      '--pad-- ',
      'epilogue',
    ]);
    const layout = await scan(message);
    assert.deepEqual(
      layout.bodies.map((part) => slice(message, part).toString()),
      ['--padding is text'],
    );
  });

  it('survives a flood of header lines and of delimiters', async () => {
    const lines = ['Content-Type: multipart/mixed; boundary=f'];
    for (let index = 0; index < 5000; index++) lines.push(`X-Header-${index}: value`);
    lines.push('', ...Array(3000).fill('--f'), '--f--');
    const layout = await scan(eml(lines), [1000, 7]);
    assert.ok(layout.headerEnd > 0);
  });

  it('survives binary garbage', async () => {
    const garbage = pattern(50_000, 11);
    await scan(garbage);
    await scan(Buffer.concat([Buffer.from('Content-Type: multipart/mixed; boundary=g\r\n\r\n--g\r\n'), garbage]));
  });
});
