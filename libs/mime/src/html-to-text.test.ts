import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToText, MAX_HTML_TO_TEXT_CHARS } from './html-to-text';

const MB = 1024 * 1024;

/**
 * Inputs that made the old regular expressions quadratic (a 64 KB run of '<' took 3.3 s, so
 * a megabyte would take about 15 minutes) or that make an HTML parser's open-element stack
 * quadratic. Linear work does each megabyte in milliseconds; the bound is generous so that
 * a slow machine never fails it, and still minutes below what quadratic work takes.
 */
const ADVERSARIAL: Record<string, string> = {
  'a run of <': '<'.repeat(MB),
  'a run of < with one > at the end': '<'.repeat(MB) + '>',
  'a run of <a without >': '<a'.repeat(MB / 2),
  'an unclosed <style': '<style>' + 'x{}'.repeat(MB / 3),
  'unclosed <style> after <style> without end': '<style>'.repeat(MB / 7),
  'deep nesting, closed by other names': '<div>'.repeat(MB / 10) + '</span>'.repeat(MB / 14),
  'deep nesting, closed': '<div><p>'.repeat(MB / 16) + '</p></div>'.repeat(MB / 20),
  'megabytes of one character': 'a'.repeat(4 * MB),
  'comments without end': '<!--'.repeat(MB / 4),
  'a run of &': '&'.repeat(MB),
  'entities without ;': '&amp'.repeat(MB / 4),
  'line breaks and spaces': '<br> \n'.repeat(MB / 6),
  'attributes full of quotes': '<a title="'.repeat(MB / 10),
};

describe('htmlToText on hostile HTML', () => {
  for (const [name, html] of Object.entries(ADVERSARIAL)) {
    it(`finishes in linear time: ${name}`, () => {
      const started = process.hrtime.bigint();
      const text = htmlToText(html);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      assert.ok(seconds < 2, `${name}: ${seconds.toFixed(2)} s`);
      assert.ok(text.length <= MAX_HTML_TO_TEXT_CHARS);
    });
  }

  it('reads at most MAX_HTML_TO_TEXT_CHARS of a message’s HTML', () => {
    const text = htmlToText('<p>word</p>'.repeat(MAX_HTML_TO_TEXT_CHARS / 5));
    assert.ok(text.length < MAX_HTML_TO_TEXT_CHARS / 2, `${text.length} characters`);
  });

  it('shows what a reader sees: no hidden elements or comments, lines kept, entities decoded', () => {
    const html =
      '<html><head><title>T</title><style>p{}</style></head><body><!-- a > b --><p>Caf&eacute; &amp; bar&nbsp;&#x21;</p>' +
      '<script type="x">if (a < b) {}</script><table><tr><td>one</td><td>two</td></tr></table>x<br/>y<STYLE>q</STYLE>z</body></html>';
    assert.deepEqual(
      htmlToText(html)
        .split('\n')
        .map((line) => line.trim()),
      ['Café & bar !', 'one two', '', 'x', 'y z'],
    );
  });

  it('keeps a lone < or > of text as it is', () => {
    assert.equal(htmlToText('1 < 2 and 3 > 2'), '1 < 2 and 3 > 2');
    assert.equal(htmlToText('a <b>bold</b> move'), 'a bold move');
  });
});
