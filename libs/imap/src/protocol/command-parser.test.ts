import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommand, TaggedCommandError } from './command-parser';

const parse = (line: string, literals: string[] = []) => {
  const parts = line.split('\n');
  return parseCommand({ lines: parts, literals: literals.map((literal) => Buffer.from(literal)) });
};

describe('parseCommand', () => {
  test('tag, upper-case name, atoms, quoted strings with escapes, nested lists', () => {
    assert.deepEqual(parse('A001 list "" "a \\"b\\" \\\\ c" (x (y NIL))'), {
      tag: 'A001',
      name: 'LIST',
      args: [
        { type: 'quoted', value: '' },
        { type: 'quoted', value: 'a "b" \\ c' },
        {
          type: 'list',
          items: [
            { type: 'atom', value: 'x' },
            {
              type: 'list',
              items: [
                { type: 'atom', value: 'y' },
                { type: 'atom', value: 'NIL' },
              ],
            },
          ],
        },
      ],
    });
  });

  test('literals in their places; UID commands named as one', () => {
    assert.deepEqual(parse('a LOGIN {5}\n {2+}\n', ['alice', 'pw']).args, [
      { type: 'literal', bytes: Buffer.from('alice') },
      { type: 'literal', bytes: Buffer.from('pw') },
    ]);
    assert.equal(parse('a uid fetch 1:* FLAGS').name, 'UID FETCH');
    assert.deepEqual(parse('a APPEND INBOX (\\Seen) ~{3}\n', ['a\0b']).args.slice(1), [
      { type: 'list', items: [{ type: 'atom', value: '\\Seen' }] },
      { type: 'literal', bytes: Buffer.from('a\0b') },
    ]);
    assert.throws(() => parse('a X ~{3'), /malformed literal|unexpected/);
    assert.equal(parse('a UID sort (DATE) UTF-8 ALL').name, 'UID SORT');
    assert.equal(parse('a uid THREAD REFERENCES UTF-8 ALL').name, 'UID THREAD');
  });

  test('brackets keep a section with its spaces and parentheses in one atom', () => {
    assert.deepEqual(parse('a FETCH 1 (BODY.PEEK[HEADER.FIELDS (From To)]<0.100> UID)').args[1], {
      type: 'list',
      items: [
        { type: 'atom', value: 'BODY.PEEK[HEADER.FIELDS (From To)]<0.100>' },
        { type: 'atom', value: 'UID' },
      ],
    });
  });

  test('malformed commands are refused, with the tag when there is one', () => {
    const refusal = (line: string) => {
      try {
        parse(line);
      } catch (error) {
        assert.ok(error instanceof TaggedCommandError);
        return [error.tag, error.message];
      }
      assert.fail(`parsed ${line}`);
    };
    assert.deepEqual(refusal('a1 LOGIN "unterminated'), ['a1', 'unterminated quoted string']);
    assert.deepEqual(refusal('a1 LIST (x'), ['a1', 'unbalanced parenthesis']);
    assert.deepEqual(refusal('a1 LIST x)'), ['a1', 'unbalanced parenthesis']);
    assert.deepEqual(refusal('a1 X "bad \\n escape"'), ['a1', 'a quoted string may escape only \\ and "']);
    assert.deepEqual(refusal('a1 X {5}'), ['a1', 'malformed literal']);
    assert.deepEqual(refusal('a1 X ' + '('.repeat(40) + ')'.repeat(40)), ['a1', 'lists nested deeper than 32']);
    assert.deepEqual(refusal('(x) NOOP'), [undefined, 'expected a tag']);
    assert.deepEqual(refusal('a1 "NOOP"'), ['a1', 'expected a command name']);
  });
});
