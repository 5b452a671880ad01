import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommand } from './command-parser';
import { parseStoreCommand } from './store-arguments';

const parsed = (text: string) => parseStoreCommand(parseCommand({ lines: [`a STORE ${text}`], literals: [] }).args);

describe('STORE arguments', () => {
  test('+FLAGS.SILENT with system flags and keywords; \\Draft and \\Recent are let be', () => {
    const command = parsed('1:3 +FLAGS.SILENT (\\Seen \\draft $Forwarded Work \\Recent)');
    assert.equal(command.silent, true);
    assert.equal(command.store.mode, 'add');
    assert.deepEqual(command.store.flags, { seen: true, flagged: false, answered: false, forwarded: true, deleted: false, keywords: ['Work'] });
  });

  test('FLAGS without parentheses, -FLAGS, and UNCHANGEDSINCE', () => {
    assert.equal(parsed('1 FLAGS \\Deleted').store.mode, 'replace');
    assert.equal(parsed('1 FLAGS \\Deleted').store.flags.deleted, true);
    const conditional = parsed('2 (UNCHANGEDSINCE 12) -FLAGS (\\Flagged)');
    assert.deepEqual([conditional.store.mode, conditional.store.unchangedSince, conditional.store.flags.flagged], ['remove', 12, true]);
  });

  test('unknown system flags, items and modifiers are refused', () => {
    assert.throws(() => parsed('1 +FLAGS (\\Bogus)'), /not a flag a client may set/);
    assert.throws(() => parsed('1 LABELS (x)'), /expected FLAGS/);
    assert.throws(() => parsed('1 (NOPE 1) FLAGS ()'), /UNCHANGEDSINCE/);
  });
});
