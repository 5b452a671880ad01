import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { decodeCharset } from './charset';
import type { BodyPartLayout } from './layout';
import { htmlToText } from './html-to-text';
import { makeSnippet, renderBodies } from './render-body';
import { scanLayout } from './scan-layout';
import { compose, slice } from './testing/mime-fixtures';

/** htmlToText leaves a space around its line breaks; only the words and lines matter here. */
const lines = (text: string) => text.split('\n').map((line) => line.trim());

const part = (contentType: BodyPartLayout['contentType'], charset: string, encoding: string): BodyPartLayout => ({
  partId: '1',
  contentType,
  charset,
  encoding,
  start: 0,
  end: 0,
});

describe('renderBodies', () => {
  it('decodes transfer encoding and charset together', () => {
    const rendered = renderBodies(
      [part('text/plain', 'iso-8859-1', 'quoted-printable'), part('text/html', 'utf-8', 'base64')],
      [Buffer.from('Gr=FC=DFe=\r\n aus K=F6ln'), Buffer.from(Buffer.from('<p>안녕</p>').toString('base64'))],
    );
    assert.deepEqual(rendered, { text: 'Grüße aus Köln', html: '<p>안녕</p>' });
  });

  it('reads what nodemailer composes in any encoding it picks', async () => {
    const text = 'Ünïcödé text 😀\r\n' + 'long line '.repeat(30) + '\r\n= signs =3D stay\r\n';
    for (const textEncoding of ['quoted-printable', 'base64'] as const) {
      const message = await compose({ from: 'a@x.test', text, html: `<p>${text}</p>`, textEncoding });
      const layout = await scanLayout(message);
      assert.deepEqual(
        layout.bodies.map((body) => body.encoding),
        [textEncoding, textEncoding],
      );
      assert.deepEqual(
        renderBodies(
          layout.bodies,
          layout.bodies.map((body) => slice(message, body)),
        ),
        { text, html: `<p>${text}</p>` },
      );
    }
  });

  it('derives the text from the html when there is no text part', () => {
    const rendered = renderBodies([part('text/html', 'utf-8', '7bit')], [Buffer.from('<p>Hello&nbsp;<b>you</b></p><p>next</p>')]);
    assert.deepEqual(lines(rendered.text), ['Hello you', 'next']);
    assert.equal(rendered.html, '<p>Hello&nbsp;<b>you</b></p><p>next</p>');
  });

  it('joins several parts of a kind', () => {
    const rendered = renderBodies([part('text/plain', 'utf-8', '7bit'), part('text/plain', 'utf-8', '7bit')], [Buffer.from('one'), Buffer.from('two')]);
    assert.deepEqual(rendered, { text: 'one\ntwo', html: undefined });
  });

  it('renders nothing for no parts', () => {
    assert.deepEqual(renderBodies([], []), { text: '', html: undefined });
  });
});

describe('decodeCharset', () => {
  it('decodes declared charsets, case-insensitively', () => {
    assert.equal(decodeCharset(Buffer.from([0x80]), 'Windows-1252'), '€');
    assert.equal(decodeCharset(iconv.encode('日本語', 'shift_jis'), 'Shift_JIS'), '日本語');
    assert.equal(decodeCharset(iconv.encode('한국어', 'cp949'), 'ks_c_5601-1987'), '한국어');
    assert.equal(decodeCharset(iconv.encode('中文', 'gb2312'), 'GB2312'), '中文');
  });

  it('reads us-ascii, unknown and unnamed charsets as UTF-8', () => {
    for (const charset of ['us-ascii', 'x-unknown', 'no-such-charset', '', 'utf8', 'UTF-8']) {
      assert.equal(decodeCharset(Buffer.from('Grüße'), charset), 'Grüße', charset);
    }
  });
});

describe('htmlToText and makeSnippet', () => {
  it('drops style, script and head, keeps line structure and entities', () => {
    const html =
      '<head><title>t</title></head><style>p{color:red}</style><script>x()</script><div>A &amp; B</div><p>1 &lt; 2</p>line<br>break<ul><li>one</li><li>two</li></ul>';
    assert.deepEqual(lines(htmlToText(html)), ['A & B', '1 < 2', 'line', 'break one', 'two']);
  });

  it('makes a snippet of the first words, flattened, cut with an ellipsis', () => {
    assert.equal(makeSnippet('  Hello\n\n  world  '), 'Hello world');
    const snippet = makeSnippet('word '.repeat(100), 20);
    assert.equal(snippet.length, 20);
    assert.ok(snippet.endsWith('…'));
    assert.equal(makeSnippet(''), '');
  });
});
