import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommand } from './command-parser';
import { parseSearchCommand } from './search-keys';
import { ImapCommandError } from './tokens';

const search = (line: string, literals: string[] = []) =>
  parseSearchCommand(parseCommand({ lines: `a SEARCH ${line}`.split('\n'), literals: literals.map((literal) => Buffer.from(literal)) }).args);

describe('SEARCH keys', () => {
  test('one key, or all of several', () => {
    assert.deepEqual(search('ALL'), { key: { kind: 'all' } });
    assert.deepEqual(search('UNSEEN FLAGGED'), {
      key: {
        kind: 'and',
        keys: [
          { kind: 'flag', flag: '\\Seen', set: false },
          { kind: 'flag', flag: '\\Flagged', set: true },
        ],
      },
    });
  });

  test('text, header, dates, sizes, sets, NOT, OR, parentheses, MODSEQ', () => {
    const { key } = search(
      'CHARSET UTF-8 FROM alice TO "Bob B" CC {3}\n SUBJECT hi BODY x TEXT y HEADER X-Tag "" BEFORE 1-Feb-1994 SENTSINCE 29-Feb-2024 LARGER 10 SMALLER 20 UID 1:5 2,4:* NOT SEEN OR DRAFT (KEYWORD $Junk NEW) MODSEQ "/flags/\\\\draft" all 620162338',
      ['c@d'],
    );
    assert.deepEqual(key, {
      kind: 'and',
      keys: [
        { kind: 'header', field: 'FROM', value: 'alice' },
        { kind: 'header', field: 'TO', value: 'Bob B' },
        { kind: 'header', field: 'CC', value: 'c@d' },
        { kind: 'header', field: 'SUBJECT', value: 'hi' },
        { kind: 'body', value: 'x' },
        { kind: 'text', value: 'y' },
        { kind: 'header', field: 'X-TAG', value: '' },
        { kind: 'date', of: 'internal', comparison: 'before', day: '1994-02-01' },
        { kind: 'date', of: 'sent', comparison: 'since', day: '2024-02-29' },
        { kind: 'size', comparison: 'larger', bytes: 10 },
        { kind: 'size', comparison: 'smaller', bytes: 20 },
        { kind: 'uid', set: [{ from: 1, to: 5 }] },
        {
          kind: 'sequence',
          set: [
            { from: 2, to: 2 },
            { from: 4, to: '*' },
          ],
        },
        { kind: 'not', key: { kind: 'flag', flag: '\\Seen', set: true } },
        {
          kind: 'or',
          left: { kind: 'flag', flag: '\\Draft', set: true },
          right: {
            kind: 'and',
            keys: [{ kind: 'flag', flag: '$Junk', set: true }, { kind: 'new' }],
          },
        },
        { kind: 'modseq', modseq: 620162338 },
      ],
    });
  });

  test('SEARCHRES: RETURN (SAVE), with or without others, and $ as a sequence set or UID set', () => {
    assert.deepEqual(search('RETURN (SAVE) UNSEEN').returns, ['SAVE']);
    assert.deepEqual(search('RETURN (SAVE MIN) UNSEEN').returns, ['SAVE', 'MIN']);
    assert.deepEqual(search('$').key, { kind: 'sequence', set: '$' });
    assert.deepEqual(search('UID $ SEEN').key, {
      kind: 'and',
      keys: [
        { kind: 'uid', set: '$' },
        { kind: 'flag', flag: '\\Seen', set: true },
      ],
    });
  });

  test('ESEARCH RETURN options', () => {
    assert.deepEqual(search('RETURN (MIN COUNT) UNSEEN').returns, ['MIN', 'COUNT']);
    assert.deepEqual(search('RETURN () ALL').returns, []);
  });

  test('refuses unknown keys and charsets, missing arguments, bad dates, deep nesting', () => {
    const refused = (line: string) => {
      try {
        search(line);
      } catch (error) {
        assert.ok(error instanceof ImapCommandError);
        return [error.status, error.code];
      }
      assert.fail(`parsed ${line}`);
    };
    assert.deepEqual(refused('CHARSET KOI8-R ALL'), ['NO', 'BADCHARSET (UTF-8 US-ASCII)']);
    for (const bad of [
      'FOO',
      'FROM',
      'BEFORE 31-Feb-2024',
      'BEFORE 2024-01-01',
      'LARGER x',
      'OR SEEN',
      '()',
      '',
      'RETURN (FOO) ALL',
      `${'NOT '.repeat(40)}SEEN`,
    ]) {
      assert.deepEqual(refused(bad), ['BAD', undefined], bad);
    }
  });
});
