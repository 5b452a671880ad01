import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import { filterHeaderFields, HeaderFieldFilter, type KeepField } from './header-field-filter';

const MESSAGE =
  'Authentication-Results: mx.letterbox.test;\r\n dmarc=pass\r\nSubject: hello\r\nAuthentication-Results: gw.example.net; spf=pass\r\n\r\n' +
  'Authentication-Results: mx.letterbox.test; in the body, untouched\r\n';
const EXPECTED =
  'Subject: hello\r\nAuthentication-Results: gw.example.net; spf=pass\r\n\r\nAuthentication-Results: mx.letterbox.test; in the body, untouched\r\n';
const keep: KeepField = (field) => !(field.name === 'authentication-results' && field.raw.includes('mx.letterbox.test'));

describe('header field filter', () => {
  it('drops the refused fields, folded lines included, and passes the body untouched', () => {
    assert.equal(filterHeaderFields(Buffer.from(MESSAGE), keep).toString(), EXPECTED);
  });

  it('does the same on a stream arriving a byte at a time', async () => {
    const bytes = [...Buffer.from(MESSAGE)].map((byte) => Buffer.from([byte]));
    assert.equal(await text(Readable.from(bytes).pipe(new HeaderFieldFilter(keep))), EXPECTED);
  });

  it('keeps a message of header fields only, its last line without a line end', () => {
    assert.equal(filterHeaderFields(Buffer.from('Subject: a\r\nX-Note: b'), keep).toString(), 'Subject: a\r\nX-Note: b');
  });

  it('passes a header block too long to be real as it came', () => {
    const huge = `Subject: ${'x'.repeat(300 * 1024)}\r\n\r\nbody`;
    assert.equal(filterHeaderFields(Buffer.from(huge), () => false).toString(), huge);
  });
});
