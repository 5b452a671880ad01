import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ImapCommandError, type Token } from '../protocol/tokens';
import { knownOnly, parseSelectParameters } from './qresync-parameter';

const atom = (value: string): Token => ({ type: 'atom', value });
const list = (...items: Token[]): Token => ({ type: 'list', items });

describe("SELECT's CONDSTORE and QRESYNC parameters", () => {
  test('CONDSTORE alone, and QRESYNC with and without known UIDs', () => {
    assert.deepEqual(parseSelectParameters(list(atom('condstore'))), { condstore: true });
    assert.deepEqual(parseSelectParameters(list(atom('QRESYNC'), list(atom('67890007'), atom('2005071519404500')))), {
      condstore: false,
      qresync: { uidValidity: 67890007, modseq: 2005071519404500 },
    });
    const withKnown = parseSelectParameters(list(atom('QRESYNC'), list(atom('7'), atom('9'), atom('1:5,9:*'), list(atom('1'), atom('1')))));
    assert.deepEqual(knownOnly([2, 6, 8, 9, 400], withKnown.qresync!), [2, 9, 400]);
    assert.deepEqual(knownOnly([2, 6], { uidValidity: 7, modseq: 9 }), [2, 6]);
  });

  test('malformed parameters are refused', () => {
    assert.throws(() => parseSelectParameters(list(atom('QRESYNC'), list(atom('7')))), ImapCommandError);
    assert.throws(() => parseSelectParameters(list(atom('FROB'))), ImapCommandError);
    assert.throws(() => parseSelectParameters(atom('CONDSTORE')), ImapCommandError);
  });
});
