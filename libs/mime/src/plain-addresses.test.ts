import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import addressparser from 'nodemailer/lib/addressparser';
import { plainAddresses } from './plain-addresses';

const PLAIN = [
  'John Doe <john@example.com>',
  'john@example.com',
  '<john@example.com>',
  'John Q. Public <j@example.org>',
  '=?UTF-8?B?7ZmN6ri464+Z?= <hong@example.kr>',
  'a@b.example, c@d.example',
  'a@b.example,c@d.example',
  'Name<a@b.example>',
  ' Name <a@b.example> ',
  'Mr. X <x@y.example>, y@z.example',
  '\u00dcn\u00efcode N\u00e4me <u@x.example>',
  '#$%& <a@b.example>',
];

const FOR_THE_PARSER = [
  '"Doe, John" <john@example.com>',
  'john@example.com (John)',
  'Team: a@b.example, c@d.example;',
  'Name  <a@b.example>',
  'a@b.example,',
  'A <a@b.example>,,B <b@c.example>',
  'name <a@b.example',
  'x <a b@c.example>',
  'Name <a@b.example> trailing',
  'some text',
  'a@[192.0.2.1]',
  '',
];

describe('plainAddresses', () => {
  test('reads the plain forms as the full parser does', () => {
    for (const value of PLAIN) {
      const expected = addressparser(value).map((entry) => ({ name: entry.name, address: 'address' in entry ? entry.address : undefined }));
      assert.deepEqual(plainAddresses(value), expected, value);
    }
  });

  test('leaves quoted names, comments, groups, odd spacing and broken entries to the full parser', () => {
    for (const value of FOR_THE_PARSER) assert.equal(plainAddresses(value), undefined, value);
  });

  test('stays linear on a long run of single-spaced words without an address', () => {
    const words = 'word '.repeat(200_000);
    assert.equal(plainAddresses(`${words}<a@b.example`), undefined);
  });
});
