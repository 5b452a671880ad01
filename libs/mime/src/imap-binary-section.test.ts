import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateBinarySection } from './imap-binary-section';
import { scanLayout } from './scan-layout';
import { eml } from './testing/mime-fixtures';

const MESSAGE = eml([
  'From: a@x.test',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: text/plain',
  'Content-Transfer-Encoding: Quoted-Printable',
  '',
  'caf=C3=A9',
  '--outer',
  'Content-Type: application/octet-stream',
  'Content-Transfer-Encoding: base64',
  '',
  'AAEC',
  '--outer',
  'Content-Type: text/plain',
  'Content-Transfer-Encoding: 8bit',
  '',
  'as is',
  '--outer',
  'Content-Type: application/x-thing',
  'Content-Transfer-Encoding: x-uuencode',
  '',
  'begin 644 thing',
  '--outer',
  'Content-Type: multipart/alternative; boundary=alt',
  '',
  '--alt',
  '',
  'alt text',
  '--alt--',
  '--outer',
  'Content-Type: message/rfc822',
  '',
  'Subject: inner',
  '',
  'inner body',
  '--outer--',
  '',
]);

describe('locateBinarySection', () => {
  it('gives a leaf part its body and the encoding to undo, none for 7bit, 8bit and binary', async () => {
    const { tree } = await scanLayout(MESSAGE);
    const content = (path: number[]) => {
      const located = locateBinarySection(tree, path);
      assert.equal(located.kind, 'content');
      return located.kind === 'content' ? [MESSAGE.subarray(located.content.span.start, located.content.span.end).toString(), located.content.encoding] : [];
    };
    assert.deepEqual(content([1]), ['caf=C3=A9', 'quoted-printable']);
    assert.deepEqual(content([2]), ['AAEC', 'base64']);
    assert.deepEqual(content([3]), ['as is', '']);
    assert.deepEqual(content([5, 1]), ['alt text', '']);
    assert.deepEqual(content([6]), ['Subject: inner\r\n\r\ninner body', '']);
    assert.deepEqual(content([]), [MESSAGE.toString(), '']);
  });

  it('refuses a multipart and an encoding it cannot undo; a part not there is missing', async () => {
    const { tree } = await scanLayout(MESSAGE);
    assert.deepEqual(locateBinarySection(tree, [4]), { kind: 'unknown-encoding', encoding: 'x-uuencode' });
    assert.deepEqual(locateBinarySection(tree, [5]), { kind: 'multipart' });
    assert.deepEqual(locateBinarySection(tree, [9]), { kind: 'missing' });
    assert.deepEqual(locateBinarySection(tree, [1, 1, 1]), { kind: 'missing' });
  });

  it('numbers the body of a single-part message 1', async () => {
    const single = eml(['Subject: one', 'Content-Transfer-Encoding: base64', '', 'aGk=', '']);
    const { tree } = await scanLayout(single);
    const located = locateBinarySection(tree, [1]);
    assert.equal(located.kind === 'content' && single.subarray(located.content.span.start, located.content.span.end).toString(), 'aGk=\r\n');
  });
});
