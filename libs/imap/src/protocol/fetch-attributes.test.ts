import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommand } from './command-parser';
import { parseFetchCommand } from './fetch-attributes';
import { ImapCommandError } from './tokens';

const fetch = (line: string) => parseFetchCommand(parseCommand({ lines: [`a FETCH ${line}`], literals: [] }).args);

describe('FETCH items', () => {
  test('macros and single items', () => {
    assert.deepEqual(fetch('1:* FAST').items, [{ kind: 'FLAGS' }, { kind: 'INTERNALDATE' }, { kind: 'RFC822.SIZE' }]);
    assert.deepEqual(
      fetch('1 FULL').items.map((item) => item.kind),
      ['FLAGS', 'INTERNALDATE', 'RFC822.SIZE', 'ENVELOPE', 'BODY'],
    );
    assert.deepEqual(fetch('1 ALL').items.length, 4);
    assert.deepEqual(fetch('2,4:7 uid').set, [
      { from: 2, to: 2 },
      { from: 4, to: 7 },
    ]);
  });

  test('every item of RFC 3501 and MODSEQ, in a list', () => {
    const { items } = fetch('1 (FLAGS UID ENVELOPE BODYSTRUCTURE BODY INTERNALDATE RFC822.SIZE RFC822 RFC822.HEADER RFC822.TEXT MODSEQ)');
    assert.deepEqual(
      items.map((item) => item.kind),
      ['FLAGS', 'UID', 'ENVELOPE', 'BODYSTRUCTURE', 'BODY', 'INTERNALDATE', 'RFC822.SIZE', 'RFC822', 'RFC822.HEADER', 'RFC822.TEXT', 'MODSEQ'],
    );
  });

  test('sections, PEEK and partial ranges', () => {
    assert.deepEqual(
      fetch('1 (BODY[] BODY.PEEK[HEADER.FIELDS (From to)]<0.100> BODY[1.2.MIME] BODY[2.TEXT] BODY[3] BINARY.PEEK[1]<5.10> BINARY.SIZE[2])').items,
      [
        { kind: 'BODY[]', section: { part: [] }, peek: false },
        { kind: 'BODY[]', section: { part: [], text: 'HEADER.FIELDS', fields: ['FROM', 'TO'] }, peek: true, partial: { offset: 0, length: 100 } },
        { kind: 'BODY[]', section: { part: [1, 2], text: 'MIME' }, peek: false },
        { kind: 'BODY[]', section: { part: [2], text: 'TEXT' }, peek: false },
        { kind: 'BODY[]', section: { part: [3] }, peek: false },
        { kind: 'BINARY[]', section: { part: [1] }, peek: true, partial: { offset: 5, length: 10 } },
        { kind: 'BINARY.SIZE', section: { part: [2] } },
      ],
    );
    assert.deepEqual(fetch('1 BODY[HEADER.FIELDS.NOT (Received)]').items[0], {
      kind: 'BODY[]',
      section: { part: [], text: 'HEADER.FIELDS.NOT', fields: ['RECEIVED'] },
      peek: false,
    });
  });

  test('CONDSTORE and QRESYNC modifiers', () => {
    assert.deepEqual(fetch('1:* (FLAGS) (CHANGEDSINCE 12345 VANISHED)'), {
      set: [{ from: 1, to: '*' }],
      items: [{ kind: 'FLAGS' }],
      changedSince: 12345,
      vanished: true,
    });
  });

  test('refuses unknown items and malformed sections', () => {
    for (const bad of [
      '1 FOO',
      '1 BODY[MIME]',
      '1 BODY[0]',
      '1 BODY[1.]',
      '1 BODY[HEADER.FIELDS ()]',
      '1 BODY[]<0.0>',
      '1 BINARY[HEADER]',
      '1 ()',
      '1 FLAGS (VANISHED)',
      'x FLAGS',
    ]) {
      assert.throws(() => fetch(bad), ImapCommandError, bad);
    }
  });
});
