import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyStructureOf } from './imap-body-structure';
import { envelopeOf, envelopeOfFields } from './imap-envelope';
import { serializeImapValue } from './imap-value';
import { scanLayout, MAX_PARTS } from './scan-layout';
import { compose, eml } from './testing/mime-fixtures';
import { fetchResponse } from './testing/imap-wire';

const PLAIN = eml([
  'From: Ann <ann@x.test>',
  'To: bob@y.test',
  'Subject: hello',
  'Date: Mon, 2 Mar 2026 09:30:00 +0900',
  'Message-ID: <m1@x.test>',
  '',
  'line one',
  'line two',
  '',
]);

const NESTED = eml([
  'From: a@x.test',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'See the forwarded mail.',
  '--outer',
  'Content-Type: message/rfc822',
  'Content-Description: forwarded',
  '',
  'From: "Inner, Sender" <inner@z.test>',
  'Subject: the original',
  'In-Reply-To: <older@z.test>',
  'Content-Type: multipart/alternative; boundary=inner',
  '',
  '--inner',
  '',
  'inner text',
  '--inner',
  'Content-Type: text/html',
  '',
  '<p>inner</p>',
  '--inner--',
  '',
  '--outer--',
  '',
]);

async function structureWire(message: Buffer, extensible = true): Promise<string> {
  return serializeImapValue(bodyStructureOf((await scanLayout(message)).tree, extensible)).toString('latin1');
}

describe('IMAP ENVELOPE', () => {
  it('is the raw header values in RFC 3501 order, Sender and Reply-To defaulting to From', async () => {
    const layout = await scanLayout(PLAIN);
    assert.equal(
      serializeImapValue(envelopeOf(PLAIN.subarray(0, layout.headerEnd))).toString(),
      '("Mon, 2 Mar 2026 09:30:00 +0900" "hello" (("Ann" NIL "ann" "x.test")) (("Ann" NIL "ann" "x.test")) (("Ann" NIL "ann" "x.test")) ' +
        '((NIL NIL "bob" "y.test")) NIL NIL NIL "<m1@x.test>")',
    );
  });

  it('writes groups with their start and end markers and escapes quotes and backslashes in names', async () => {
    const message = eml([
      'From: "Ann \\"the\\" \\\\ boss" <ann@x.test>',
      'Sender: sender@x.test',
      'To: Team: one@y.test, "Two" <two@y.test>;, solo@z.test',
      'Cc: undisclosed-recipients:;',
      'Subject: =?utf-8?B?7JWI64WV?= left encoded',
      '',
      'body',
    ]);
    const { wire, envelope } = await fetchResponse(message);
    assert.match(wire.toString(), /\(\("Ann \\"the\\" \\\\ boss" NIL "ann" "x\.test"\)\) \(\(NIL NIL "sender" "x\.test"\)\) \(\("Ann/);
    assert.match(
      wire.toString(),
      /\(\(NIL NIL "Team" NIL\)\(NIL NIL "one" "y\.test"\)\("Two" NIL "two" "y\.test"\)\(NIL NIL NIL NIL\)\(NIL NIL "solo" "z\.test"\)\)/,
    );
    assert.match(wire.toString(), /"=\?utf-8\?B\?7JWI64WV\?= left encoded"/);
    assert.deepEqual(envelope.from, [{ name: 'Ann "the" \\ boss', address: 'ann@x.test' }]);
    assert.deepEqual(envelope.sender, [{ name: '', address: 'sender@x.test' }]);
    assert.deepEqual(envelope.replyTo, envelope.from);
    assert.deepEqual(
      envelope.to?.map((address) => address.address),
      ['', 'one@y.test', 'two@y.test', 'solo@z.test'],
    );
    assert.equal(envelope.subject, '안녕 left encoded');
  });

  it('sends 8-bit header bytes as they came, in a literal', async () => {
    const message = Buffer.concat([Buffer.from('From: a@x.test\r\nSubject: '), Buffer.from('Grüße', 'utf8'), Buffer.from('\r\n\r\nbody')]);
    const { wire, envelope } = await fetchResponse(message);
    assert.ok(wire.includes(Buffer.concat([Buffer.from('{7}\r\n'), Buffer.from('Grüße', 'utf8')])));
    assert.equal(envelope.subject, 'Grüße');
  });

  it("is the same from the top-level message's recorded envelope fields as from its header block, absent fields left out", async () => {
    for (const message of [PLAIN, NESTED]) {
      const { tree, headerEnd } = await scanLayout(message);
      assert.ok(tree.envelope);
      assert.deepEqual(envelopeOfFields(tree.envelope), envelopeOf(message.subarray(0, headerEnd)));
    }
    const { tree } = await scanLayout(NESTED);
    assert.deepEqual(tree.envelope, { from: 'a@x.test' });
    assert.deepEqual(tree.parts?.[1]?.message?.envelope, { from: '"Inner, Sender" <inner@z.test>', subject: 'the original', inReplyTo: '<older@z.test>' });
  });

  it('is all NIL for a message without headers', async () => {
    assert.equal(serializeImapValue(envelopeOf(Buffer.from('\r\nbody'))).toString(), '(NIL NIL NIL NIL NIL NIL NIL NIL NIL NIL)');
  });
});

describe('IMAP BODYSTRUCTURE and BODY', () => {
  it('describes a plain text message, with its size and lines, and BODY without extension data', async () => {
    assert.equal(await structureWire(PLAIN), '("text" "plain" ("charset" "us-ascii") NIL NIL "7BIT" 20 2 NIL NIL NIL NIL)');
    assert.equal(await structureWire(PLAIN, false), '("text" "plain" ("charset" "us-ascii") NIL NIL "7BIT" 20 2)');
  });

  it('describes multipart/alternative with its parts back to back and the boundary among its extension data', async () => {
    const message = await compose({ from: 'a@x.test', to: 'b@y.test', subject: 'alt', text: 'plain\nbody', html: '<p>html</p>' });
    const wire = await structureWire(message);
    assert.match(
      wire,
      /^\(\("text" "plain" \("charset" "utf-8"\) NIL NIL "7BIT" \d+ 2 NIL NIL NIL NIL\)\("text" "html" .*\) "alternative" \("boundary" "[^"]+"\) NIL NIL NIL\)$/,
    );
    const { structure } = await fetchResponse(message);
    assert.equal(structure.type, 'multipart/alternative');
    assert.deepEqual(
      structure.childNodes?.map((part) => [part.part, part.type]),
      [
        ['1', 'text/plain'],
        ['2', 'text/html'],
      ],
    );
  });

  it('describes multipart/mixed with attachments: encoding, disposition and its parameters, sizes of the encoded bodies', async () => {
    const message = await compose({
      from: 'a@x.test',
      subject: 'files',
      text: 'see attached',
      attachments: [
        { filename: 'report.pdf', content: Buffer.alloc(3000, 7), contentType: 'application/pdf' },
        { filename: 'logo.png', content: Buffer.alloc(100, 1), contentType: 'image/png', cid: 'logo@x.test', contentDisposition: 'inline' },
      ],
    });
    const layout = await scanLayout(message);
    const { structure } = await fetchResponse(message);
    assert.equal(structure.type, 'multipart/mixed');
    const [text, pdf, png] = structure.childNodes ?? [];
    assert.equal(text.type, 'text/plain');
    assert.equal(pdf.type, 'application/pdf');
    assert.equal(pdf.encoding, 'base64');
    assert.equal(pdf.disposition, 'attachment');
    assert.deepEqual(pdf.dispositionParameters, { filename: 'report.pdf' });
    const pdfPart = layout.tree.parts?.[1];
    assert.equal(pdf.size, (pdfPart?.end ?? 0) - (pdfPart?.body ?? 0));
    assert.equal(png.id, '<logo@x.test>');
    assert.equal(png.disposition, 'inline');
  });

  it('describes a message/rfc822 part with the envelope and structure of its message, numbered below it', async () => {
    const wire = await structureWire(NESTED);
    assert.match(
      wire,
      /\("message" "rfc822" NIL NIL "forwarded" "7BIT" \d+ \(NIL "the original" \(\("Inner, Sender" NIL "inner" "z\.test"\)\) .* "<older@z\.test>" NIL\) \(\("text" "plain" .*\) "alternative" .*\) 13 NIL NIL NIL NIL\)/,
    );
    const { structure } = await fetchResponse(NESTED);
    const forwarded = structure.childNodes?.[1];
    assert.equal(forwarded?.type, 'message/rfc822');
    assert.equal(forwarded?.envelope?.subject, 'the original');
    assert.equal(forwarded?.lineCount, 13);
    const inner = forwarded?.childNodes?.[0];
    assert.equal(inner?.type, 'multipart/alternative');
    assert.deepEqual(
      inner?.childNodes?.map((part) => [part.part, part.type]),
      [
        ['2.1', 'text/plain'],
        ['2.2', 'text/html'],
      ],
    );
  });

  it('keeps attachments and shown bodies as they were: an encapsulated message is one attachment', async () => {
    const layout = await scanLayout(NESTED);
    assert.deepEqual(
      layout.bodies.map((part) => part.partId),
      ['1'],
    );
    assert.deepEqual(
      layout.attachments.map((part) => [part.partId, part.contentType]),
      [['2', 'message/rfc822']],
    );
  });

  it('describes truncated and malformed mail in a shape clients read', async () => {
    const truncated = NESTED.subarray(0, NESTED.indexOf('<p>inner'));
    const unclosed = eml(['Content-Type: multipart/mixed; boundary=never', '', 'no part ever starts']);
    const badType = eml(['Content-Type: nonsense', 'Content-Transfer-Encoding: ', '', 'text']);
    for (const message of [truncated, unclosed, badType, Buffer.alloc(0)]) {
      const { structure } = await fetchResponse(message);
      assert.ok(structure.type, `a type for ${JSON.stringify(message.toString().slice(0, 40))}`);
    }
    assert.equal((await fetchResponse(unclosed)).structure.type, 'text/plain');
    assert.equal((await fetchResponse(truncated)).structure.childNodes?.[1].childNodes?.[0].childNodes?.[1].type, 'text/html');
  });

  it('records a bounded tree of a message of very many parts, and bounded parameter lists', async () => {
    const lines = ['Content-Type: multipart/mixed; boundary=b' + '; p=v'.repeat(500), ''];
    for (let index = 0; index < MAX_PARTS + 200; index++) lines.push('--b', '', `part ${index}`);
    lines.push('--b--', '');
    const layout = await scanLayout(eml(lines));
    assert.equal(layout.tree.parts?.length, MAX_PARTS - 1);
    assert.equal(layout.tree.params?.length, 32);
    const { structure } = await fetchResponse(eml(lines));
    assert.equal(structure.childNodes?.length, MAX_PARTS - 1);
  });
});
