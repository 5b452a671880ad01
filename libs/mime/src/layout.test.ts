import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHeaderBlock } from './header-block';
import { renderBodies } from './render-body';
import { sanitizeMailHtml } from './sanitize';
import { scanLayout } from './scan-layout';
import { attachmentById, bodyById, compose, decodePart, eml, pattern, slice } from './testing/mime-fixtures';

/** Decodes one body part alone, as the reader does. */
function bodyText(message: Buffer, part: Parameters<typeof renderBodies>[0][number]): string {
  const rendered = renderBodies([part], [slice(message, part)]);
  return part.contentType === 'text/html' ? (rendered.html as string) : rendered.text;
}

describe('scanLayout on realistic messages', () => {
  const text = 'Grüße aus Köln — 1 + 1 = 2\r\n' + 'A long line that keeps going and going, '.repeat(8) + '\r\nbye\r\n';
  const html = '<p>Hi <b>there</b> <img src="cid:logo@letterbox.test"></p>\r\n<p>' + 'A long html line with = signs and ünïcödé, '.repeat(6) + '</p>';
  const logo = pattern(3000, 1);
  const binary = pattern(100_000);
  const notes = 'key=value with trailing space \r\n' + 'x'.repeat(200) + '\r\n=41 stays literal, tab\t\r\nlast line without break =';
  const sevenBit = 'seven bit text\r\nsecond line\r\n';
  const pdf = pattern(500, 2);

  const build = () =>
    compose({
      from: 'Kim <kim@letterbox.test>',
      to: 'lee@letterbox.test',
      subject: 'Layout',
      text,
      html,
      attachments: [
        { filename: 'logo.png', content: logo, contentType: 'image/png', cid: 'logo@letterbox.test' },
        { filename: 'data.bin', content: binary },
        { filename: 'notes.txt', content: Buffer.from(notes), contentType: 'text/plain', contentTransferEncoding: 'quoted-printable' },
        // nodemailer keeps 7bit only for a string without an explicit contentType
        { filename: 'plain.txt', content: sevenBit, contentTransferEncoding: '7bit' },
        { filename: 'Ü€ résumé 報告.pdf', content: pdf, contentType: 'application/pdf' },
      ],
    });

  it('numbers parts as IMAP does: mixed[alternative[text, related[html, image]], attachments...]', async () => {
    const message = await build();
    const layout = await scanLayout(message);
    assert.deepEqual(
      layout.bodies.map(({ partId, contentType, charset }) => ({ partId, contentType, charset })),
      [
        { partId: '1.1', contentType: 'text/plain', charset: 'utf-8' },
        { partId: '1.2.1', contentType: 'text/html', charset: 'utf-8' },
      ],
    );
    assert.deepEqual(
      layout.attachments.map(({ partId, filename, contentType, disposition, contentId }) => ({ partId, filename, contentType, disposition, contentId })),
      [
        { partId: '1.2.2', filename: 'logo.png', contentType: 'image/png', disposition: 'inline', contentId: 'logo@letterbox.test' },
        { partId: '2', filename: 'data.bin', contentType: 'application/octet-stream', disposition: 'attachment', contentId: undefined },
        { partId: '3', filename: 'notes.txt', contentType: 'text/plain', disposition: 'attachment', contentId: undefined },
        { partId: '4', filename: 'plain.txt', contentType: 'text/plain', disposition: 'attachment', contentId: undefined },
        { partId: '5', filename: 'Ü€ résumé 報告.pdf', contentType: 'application/pdf', disposition: 'attachment', contentId: undefined },
      ],
    );
    assert.equal(layout.size, message.length);
  });

  it('puts the header block, and only it, before headerEnd', async () => {
    const message = await build();
    const layout = await scanLayout(message);
    const block = slice(message, { start: 0, end: layout.headerEnd });
    assert.ok(block.toString('latin1').endsWith('\r\n\r\n'));
    assert.ok(!block.toString('latin1').includes('\r\n\r\n--'));
    const subject = parseHeaderBlock(block).find((header) => header.name === 'Subject');
    assert.equal(subject?.value, 'Layout');
  });

  it('gives body ranges that decode to exactly the composed text and html', async () => {
    const message = await build();
    const layout = await scanLayout(message);
    assert.equal(bodyText(message, bodyById(layout, '1.1')), text);
    assert.equal(bodyText(message, bodyById(layout, '1.2.1')), html);
    assert.deepEqual(
      renderBodies(
        layout.bodies,
        layout.bodies.map((part) => slice(message, part)),
      ),
      { text, html },
    );
  });

  it('gives attachment ranges that decode to exactly the composed bytes', async () => {
    const message = await build();
    const layout = await scanLayout(message);
    const expected: Array<[string, string, Buffer]> = [
      ['1.2.2', 'base64', logo],
      ['2', 'base64', binary],
      ['3', 'quoted-printable', Buffer.from(notes)],
      ['4', '7bit', Buffer.from(sevenBit)],
      ['5', 'base64', pdf],
    ];
    for (const [partId, encoding, content] of expected) {
      const part = attachmentById(layout, partId);
      assert.equal(part.encoding, encoding, partId);
      assert.ok((await decodePart(message, part)).equals(content), `attachment ${partId} decodes to its content`);
    }
  });

  it("resolves the html part's cid: image to the inline attachment, as the reader does", async () => {
    const message = await build();
    const layout = await scanLayout(message);
    const inline = new Map(layout.attachments.filter((part) => part.contentId).map((part) => [part.contentId, `/attachments/${part.partId}`]));
    const html = sanitizeMailHtml(bodyText(message, bodyById(layout, '1.2.1')), (contentId) => inline.get(contentId));
    assert.match(html, /<img src="\/attachments\/1\.2\.2" \/>/);
  });

  it('checks that the QP attachment really exercises long lines and = signs', async () => {
    const message = await build();
    const encoded = slice(message, attachmentById(await scanLayout(message), '3')).toString();
    assert.match(encoded, /=3D/);
    assert.match(encoded, /=\r\n/, 'soft line breaks');
    assert.match(encoded, /=20\r\n/, 'trailing space encoded');
  });

  it('reads a single-part text message as body part 1', async () => {
    const message = await compose({ from: 'a@x.test', subject: 'plain', text: 'Just text.\r\n' });
    const layout = await scanLayout(message);
    assert.deepEqual(layout.attachments, []);
    assert.equal(layout.bodies.length, 1);
    assert.equal(layout.bodies[0].partId, '1');
    assert.equal(layout.bodies[0].start, layout.headerEnd);
    assert.equal(layout.bodies[0].end, message.length);
    assert.equal(bodyText(message, layout.bodies[0]), 'Just text.\r\n');
  });

  it('reads a single-part html message as body part 1', async () => {
    const message = await compose({ from: 'a@x.test', subject: 'html', html: '<p>Only html</p>' });
    const layout = await scanLayout(message);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, part.contentType]),
      [['1', 'text/html']],
    );
    // a single part's body runs to the end of the data, nodemailer's final CRLF included
    assert.equal(bodyText(message, layout.bodies[0]), '<p>Only html</p>\r\n');
    assert.equal(renderBodies(layout.bodies, [slice(message, layout.bodies[0])]).text, 'Only html');
  });

  it('reads a message that is a single attachment as attachment part 1', async () => {
    const content = pattern(1000, 3);
    const message = eml([
      'From: a@x.test',
      'Content-Type: application/pdf; name="scan.pdf"',
      'Content-Disposition: attachment; filename="scan.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      content.toString('base64').replace(/.{76}/g, '$&\r\n'),
    ]);
    const layout = await scanLayout(message);
    assert.deepEqual(layout.bodies, []);
    assert.equal(layout.attachments.length, 1);
    assert.equal(layout.attachments[0].partId, '1');
    assert.equal(layout.attachments[0].filename, 'scan.pdf');
    assert.ok((await decodePart(message, layout.attachments[0])).equals(content));
  });

  it('numbers nested multiparts at every level', async () => {
    // mixed[ mixed[ text, image ], alternative[ text, html ], related[ html, image, image ], pdf ]
    const message = eml([
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      'preamble is ignored',
      '--outer',
      'Content-Type: multipart/mixed; boundary=a',
      '',
      '--a',
      'Content-Type: text/plain',
      '',
      'first text',
      '--a',
      'Content-Type: image/gif',
      'Content-Transfer-Encoding: base64',
      '',
      'R0lGODlh',
      '--a--',
      '--outer',
      'Content-Type: multipart/alternative; boundary=b',
      '',
      '--b',
      'Content-Type: text/plain; charset=ISO-8859-1',
      '',
      'second text',
      '--b',
      'Content-Type: text/html',
      '',
      '<p>second html</p>',
      '--b--',
      'epilogue of b',
      '--outer',
      'Content-Type: multipart/related; boundary="c"',
      '',
      '--c',
      'Content-Type: text/html',
      '',
      '<img src="cid:one"><img src="cid:two">',
      '--c',
      'Content-Type: image/png',
      'Content-ID: <one>',
      '',
      'ONE',
      '--c',
      'Content-Type: image/png',
      'Content-ID: <two>',
      'Content-Disposition: inline; filename=two.png',
      '',
      'TWO',
      '--c--',
      '--outer',
      'Content-Type: application/pdf',
      '',
      'PDF',
      '--outer--',
      'epilogue',
      '',
    ]);
    const layout = await scanLayout(message);
    assert.deepEqual(
      layout.bodies.map((part) => [part.partId, part.contentType, slice(message, part).toString()]),
      [
        ['1.1', 'text/plain', 'first text'],
        ['2.1', 'text/plain', 'second text'],
        ['2.2', 'text/html', '<p>second html</p>'],
        ['3.1', 'text/html', '<img src="cid:one"><img src="cid:two">'],
      ],
    );
    assert.equal(bodyById(layout, '2.1').charset, 'iso-8859-1');
    assert.deepEqual(
      layout.attachments.map((part) => [part.partId, part.filename, part.disposition, part.contentId, slice(message, part).toString()]),
      [
        ['1.2', 'part-1.2.gif', 'attachment', undefined, 'R0lGODlh'],
        ['3.2', 'part-3.2.png', 'inline', 'one', 'ONE'],
        ['3.3', 'two.png', 'inline', 'two', 'TWO'],
        ['4', 'part-4.pdf', 'attachment', undefined, 'PDF'],
      ],
    );
  });

  it('keeps an attached message/rfc822 as one attachment, its own parts unread', async () => {
    const inner = eml([
      'From: inner@x.test',
      'Subject: inner',
      'Content-Type: multipart/mixed; boundary="in"',
      '',
      '--in',
      'Content-Type: text/plain',
      '',
      'inner text',
      '--in',
      'Content-Type: application/octet-stream; name=inner.bin',
      '',
      'bin',
      '--in--',
      '',
    ]);
    const message = await compose({
      from: 'a@x.test',
      text: 'See attached.',
      attachments: [
        { filename: 'forwarded.eml', content: inner, contentType: 'message/rfc822' },
        { filename: 'after.txt', content: 'after', contentType: 'text/plain' },
      ],
    });
    const layout = await scanLayout(message);
    assert.deepEqual(
      layout.bodies.map((part) => part.partId),
      ['1'],
    );
    assert.equal(bodyText(message, layout.bodies[0]), 'See attached.');
    assert.deepEqual(
      layout.attachments.map((part) => [part.partId, part.filename, part.contentType]),
      [
        ['2', 'forwarded.eml', 'message/rfc822'],
        ['3', 'after.txt', 'text/plain'],
      ],
    );
    assert.ok((await decodePart(message, attachmentById(layout, '2'))).equals(inner));
    assert.equal((await decodePart(message, attachmentById(layout, '3'))).toString(), 'after');
  });

  it('names an attached message without a filename part-N.eml', async () => {
    const message = eml([
      'Content-Type: multipart/mixed; boundary=b',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'fyi',
      '--b',
      'Content-Type: message/rfc822',
      '',
      'Subject: old',
      '',
      'old body',
      '--b--',
    ]);
    const layout = await scanLayout(message);
    assert.deepEqual(
      layout.attachments.map((part) => [part.partId, part.filename, slice(message, part).toString()]),
      [['2', 'part-2.eml', 'Subject: old\r\n\r\nold body']],
    );
  });
});

describe('scanLayout attachment names and kinds', () => {
  const parts = [
    // RFC 2231 with continuations, as nodemailer writes it
    [
      'Content-Type: application/pdf',
      'Content-Disposition: attachment;',
      " filename*0*=utf-8''%C3%9C%E2%82%AC%20r%C3%A9sum%C3%A9%20;",
      ' filename*1*=%E5%A0%B1%E5%91%8A.pdf',
    ],
    // RFC 2231 whose decoded text happens to read as UTF-8 bytes too ("Ü€" is DC AC)
    ['Content-Type: text/plain', "Content-Disposition: attachment; filename*=utf-8''%C3%9C%E2%82%AC.txt"],
    // RFC 2231 in latin1
    ['Content-Type: text/csv', "Content-Disposition: attachment; filename*=iso-8859-1''r%E9sum%E9.csv"],
    // RFC 2047, B and Q, quoted
    ['Content-Type: application/octet-stream', 'Content-Disposition: attachment; filename="=?UTF-8?B?w5zigqwudHh0?="'],
    ['Content-Type: application/octet-stream', 'Content-Disposition: attachment; filename="=?utf-8?q?caf=C3=A9_men=C3=BC.doc?="'],
    // RFC 2047 in the Content-Type name only, folded across two encoded words
    ['Content-Type: image/jpeg; name="=?UTF-8?Q?=EC=82=AC=EC=A7=84?=', ' =?UTF-8?Q?_1.jpg?="'],
    // raw UTF-8 bytes (RFC 6532 style)
    ['Content-Type: application/zip', 'Content-Disposition: attachment; filename="압축 파일.zip"'],
    // a text part that is an attachment without a name
    ['Content-Type: text/plain', 'Content-Disposition: attachment'],
    // html with a name is a file, not the message's body
    ['Content-Type: text/html; name=page.html'],
    // an unknown disposition is taken as attachment
    ['Content-Type: application/octet-stream', 'Content-Disposition: x-weird'],
  ];
  const build = () =>
    eml([
      'Content-Type: multipart/mixed; boundary=zz',
      '',
      '--zz',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'body',
      ...parts.flatMap((headers, index) => ['--zz', ...headers, '', `content ${index}`]),
      '--zz--',
      '',
    ]);

  it('decodes RFC 2231 and RFC 2047 names and raw UTF-8 names', async () => {
    const layout = await scanLayout(build());
    assert.deepEqual(
      layout.attachments.map((part) => [part.partId, part.filename, part.contentType, part.disposition]),
      [
        ['2', 'Ü€ résumé 報告.pdf', 'application/pdf', 'attachment'],
        ['3', 'Ü€.txt', 'text/plain', 'attachment'],
        ['4', 'résumé.csv', 'text/csv', 'attachment'],
        ['5', 'Ü€.txt', 'application/octet-stream', 'attachment'],
        ['6', 'café menü.doc', 'application/octet-stream', 'attachment'],
        ['7', '사진 1.jpg', 'image/jpeg', 'attachment'],
        ['8', '압축 파일.zip', 'application/zip', 'attachment'],
        ['9', 'part-9.txt', 'text/plain', 'attachment'],
        ['10', 'page.html', 'text/html', 'attachment'],
        ['11', 'part-11.bin', 'application/octet-stream', 'attachment'],
      ],
    );
    assert.deepEqual(
      layout.bodies.map((part) => part.partId),
      ['1'],
    );
  });

  it('gives every part the range of its own content', async () => {
    const message = build();
    const layout = await scanLayout(message);
    layout.attachments.forEach((part, index) => assert.equal(slice(message, part).toString(), `content ${index}`));
    assert.equal(slice(message, layout.bodies[0]).toString(), 'body');
  });
});
