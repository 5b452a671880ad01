import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommand } from './command-parser';
import { parseSortCommand, parseThreadCommand } from './sort-arguments';
import { ImapCommandError } from './tokens';

const args = (command: string, line: string) => parseCommand({ lines: [`a ${command} ${line}`], literals: [] }).args;
const sort = (line: string) => parseSortCommand(args('SORT', line));
const thread = (line: string) => parseThreadCommand(args('THREAD', line));

describe('SORT and THREAD arguments', () => {
  test('SORT takes every criterion, REVERSE turning the one after it, then a charset and search keys', () => {
    assert.deepEqual(sort('(REVERSE ARRIVAL cc date From SIZE subject TO DISPLAYFROM reverse DISPLAYTO) UTF-8 UNSEEN SENTSINCE 1-Mar-2026'), {
      keys: [
        { field: 'arrival', reverse: true },
        { field: 'cc', reverse: false },
        { field: 'date', reverse: false },
        { field: 'from', reverse: false },
        { field: 'size', reverse: false },
        { field: 'subject', reverse: false },
        { field: 'to', reverse: false },
        { field: 'displayfrom', reverse: false },
        { field: 'displayto', reverse: true },
      ],
      key: {
        kind: 'and',
        keys: [
          { kind: 'flag', flag: '\\Seen', set: false },
          { kind: 'date', of: 'sent', comparison: 'since', day: '2026-03-01' },
        ],
      },
    });
    assert.deepEqual(sort('(SUBJECT) us-ascii ALL'), { keys: [{ field: 'subject', reverse: false }], key: { kind: 'all' } });
  });

  test('SORT refuses an empty or unknown criterion, a dangling or doubled REVERSE, missing keys; another charset is NO [BADCHARSET]', () => {
    for (const line of [
      '() UTF-8 ALL',
      '(COLOR) UTF-8 ALL',
      '(DATE REVERSE) UTF-8 ALL',
      '(REVERSE REVERSE DATE) UTF-8 ALL',
      'DATE UTF-8 ALL',
      '(DATE) UTF-8',
      '(DATE)',
    ]) {
      assert.throws(
        () => sort(line),
        (error: unknown) => error instanceof ImapCommandError && error.status === 'BAD',
        line,
      );
    }
    assert.throws(
      () => sort('(DATE) ISO-8859-1 ALL'),
      (error: unknown) => error instanceof ImapCommandError && error.status === 'NO' && error.code === 'BADCHARSET (UTF-8 US-ASCII)',
    );
  });

  test('THREAD takes ORDEREDSUBJECT or REFERENCES, a charset and search keys', () => {
    assert.deepEqual(thread('orderedsubject UTF-8 ALL'), { algorithm: 'orderedsubject', key: { kind: 'all' } });
    assert.deepEqual(thread('REFERENCES US-ASCII FROM alice'), { algorithm: 'references', key: { kind: 'header', field: 'FROM', value: 'alice' } });
    assert.throws(
      () => thread('JWZ UTF-8 ALL'),
      (error: unknown) => error instanceof ImapCommandError && error.status === 'BAD',
    );
    assert.throws(
      () => thread('REFERENCES UTF-8'),
      (error: unknown) => error instanceof ImapCommandError && error.status === 'BAD',
    );
    assert.throws(
      () => thread('REFERENCES KOI8-R ALL'),
      (error: unknown) => error instanceof ImapCommandError && error.status === 'NO' && error.code === 'BADCHARSET (UTF-8 US-ASCII)',
    );
  });
});
