import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeResponse, imapNString, imapString, tagged, untagged } from './response-format';

describe('responses', () => {
  test('strings are quoted when they can be, literals when they cannot', () => {
    assert.equal(imapString('a "b" \\'), '"a \\"b\\" \\\\"');
    assert.deepEqual(imapString('two\r\nlines'), { literal: Buffer.from('two\r\nlines') });
    assert.deepEqual(imapString('Entwürfe'), { literal: Buffer.from('Entwürfe') });
    assert.equal(imapString('Entwürfe', true), '"Entwürfe"');
    assert.equal(imapNString(null), 'NIL');
  });

  test('lines end in CRLF; literals are announced with their byte count', () => {
    assert.equal(encodeResponse(untagged('LIST () "/" ', imapString('a\nb'))).toString(), '* LIST () "/" {3}\r\na\nb\r\n');
    assert.equal(encodeResponse(tagged('a1', 'NO', 'wrong\r\npassword', 'AUTHENTICATIONFAILED')).toString(), 'a1 NO [AUTHENTICATIONFAILED] wrong password\r\n');
  });

  test('raw parts go as they are: a value serialized with its own literals and 8-bit bytes', () => {
    const raw = Buffer.from('("a" {3}\r\nb\xe9c)', 'latin1');
    assert.deepEqual(
      encodeResponse(untagged('1 FETCH (ENVELOPE ', { raw }, ')')),
      Buffer.concat([Buffer.from('* 1 FETCH (ENVELOPE '), raw, Buffer.from(')\r\n')]),
    );
  });
});
