import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterHeaderFields } from './header-fields-filter';
import { ImapSectionError, locateSection, parseImapSection, type SectionBytes } from './imap-section';
import { scanLayout } from './scan-layout';
import { eml } from './testing/mime-fixtures';

const MESSAGE = eml([
  'From: a@x.test',
  'To: b@y.test',
  'Subject: sections',
  '  folded on',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: text/plain',
  '',
  'first part',
  '--outer',
  'Content-Type: multipart/alternative; boundary=alt',
  '',
  '--alt',
  '',
  'alt text',
  '--alt',
  'Content-Type: text/html',
  '',
  '<p>alt</p>',
  '--alt--',
  '--outer',
  'Content-Type: message/rfc822',
  '',
  'From: inner@z.test',
  'Subject: inner',
  '',
  'inner body',
  '--outer--',
  '',
]);

async function section(message: Buffer, spec: string): Promise<string> {
  const located: SectionBytes = locateSection((await scanLayout(message)).tree, parseImapSection(spec));
  if ('span' in located) return message.toString('latin1', located.span.start, located.span.end);
  return filterHeaderFields(message.subarray(located.headerBlock.start, located.headerBlock.end), located.fields, located.exclude).toString('latin1');
}

describe('parseImapSection', () => {
  it('reads part numbers, texts and header lists in any case', () => {
    assert.deepEqual(parseImapSection(''), { part: [] });
    assert.deepEqual(parseImapSection('1.2'), { part: [1, 2] });
    assert.deepEqual(parseImapSection('header'), { part: [], text: 'HEADER' });
    assert.deepEqual(parseImapSection('3.TEXT'), { part: [3], text: 'TEXT' });
    assert.deepEqual(parseImapSection('1.2.MIME'), { part: [1, 2], text: 'MIME' });
    assert.deepEqual(parseImapSection('HEADER.FIELDS (From "To")'), { part: [], text: 'HEADER.FIELDS', fields: ['from', 'to'] });
    assert.deepEqual(parseImapSection('2.HEADER.FIELDS.NOT (SUBJECT)'), { part: [2], text: 'HEADER.FIELDS.NOT', fields: ['subject'] });
  });

  it('refuses what the grammar does not allow', () => {
    for (const spec of ['0', '1.', '.1', 'MIME', 'BODY', '1.X', 'HEADER.FIELDS', 'HEADER.FIELDS ()', 'TEXT (FROM)', '1..2', '1 2']) {
      assert.throws(() => parseImapSection(spec), ImapSectionError, spec);
    }
  });
});

describe('locateSection', () => {
  it('finds the whole message, its header (with the blank line) and its text', async () => {
    assert.equal(await section(MESSAGE, ''), MESSAGE.toString('latin1'));
    assert.equal(await section(MESSAGE, 'HEADER'), MESSAGE.toString('latin1', 0, MESSAGE.indexOf('--outer')));
    assert.equal(await section(MESSAGE, 'TEXT'), MESSAGE.toString('latin1', MESSAGE.indexOf('--outer')));
  });

  it('finds parts by number, their MIME headers, and the header and text of an encapsulated message', async () => {
    assert.equal(await section(MESSAGE, '1'), 'first part');
    assert.equal(await section(MESSAGE, '1.MIME'), 'Content-Type: text/plain\r\n\r\n');
    assert.equal(await section(MESSAGE, '2.1'), 'alt text');
    assert.equal(await section(MESSAGE, '2.2'), '<p>alt</p>');
    assert.equal(await section(MESSAGE, '2.2.MIME'), 'Content-Type: text/html\r\n\r\n');
    assert.equal(await section(MESSAGE, '2'), '--alt\r\n\r\nalt text\r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>alt</p>\r\n--alt--');
    assert.equal(await section(MESSAGE, '3'), 'From: inner@z.test\r\nSubject: inner\r\n\r\ninner body');
    assert.equal(await section(MESSAGE, '3.HEADER'), 'From: inner@z.test\r\nSubject: inner\r\n\r\n');
    assert.equal(await section(MESSAGE, '3.TEXT'), 'inner body');
    assert.equal(await section(MESSAGE, '3.1'), 'inner body');
    assert.equal(await section(MESSAGE, '3.HEADER.FIELDS (SUBJECT)'), 'Subject: inner\r\n\r\n');
  });

  it('reads part 1 of a message that is not multipart as its body', async () => {
    const plain = eml(['Subject: plain', '', 'just text']);
    assert.equal(await section(plain, '1'), 'just text');
    assert.equal(await section(plain, 'TEXT'), 'just text');
  });

  it('answers an empty string for a part that is not there, and for HEADER or TEXT of a part holding no message', async () => {
    for (const spec of ['4', '1.1', '2.3', '9.9.9', '1.HEADER', '2.TEXT', '1.HEADER.FIELDS (FROM)']) assert.equal(await section(MESSAGE, spec), '', spec);
  });

  it('picks header fields with their folded lines, or all but them, ending with the blank line', async () => {
    assert.equal(await section(MESSAGE, 'HEADER.FIELDS (SUBJECT from)'), 'From: a@x.test\r\nSubject: sections\r\n  folded on\r\n\r\n');
    assert.equal(await section(MESSAGE, 'HEADER.FIELDS.NOT (Subject Content-Type)'), 'From: a@x.test\r\nTo: b@y.test\r\n\r\n');
    assert.equal(await section(MESSAGE, 'HEADER.FIELDS (X-NOWHERE)'), '\r\n');
  });
});

describe('filterHeaderFields', () => {
  it('keeps LF line breaks as stored and ends an unterminated last field', () => {
    assert.equal(filterHeaderFields(Buffer.from('A: 1\nB: 2\n\tmore\nC: 3'), ['b', 'c'], false).toString(), 'B: 2\n\tmore\nC: 3\r\n\r\n');
  });
});
