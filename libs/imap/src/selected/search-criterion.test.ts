import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommand } from '../protocol/command-parser';
import { parseSearchCommand } from '../protocol/search-keys';
import { ImapCommandError } from '../protocol/tokens';
import { esearchLine, savedPart } from '../commands/search';
import { asksModseq, searchCriterion } from './search-criterion';
import { SelectedMailbox } from './selected-mailbox';

/** A mailbox of UIDs 3, 4, 7, 9 and 20: sequence numbers 1 to 5. */
const mailboxOfFive = () =>
  new SelectedMailbox({
    mailboxId: 1,
    name: 'INBOX',
    readOnly: false,
    uidValidity: 1,
    highestModseq: 1,
    uidRuns: [
      [3, 4],
      [7, 7],
      [9, 9],
      [20, 20],
    ],
  });
const mailbox = mailboxOfFive();
const criterion = (text: string) => searchCriterion(parseSearchCommand(parseCommand({ lines: [`a SEARCH ${text}`], literals: [] }).args).key, mailbox);

describe('SEARCH keys as libs/mail search criteria', () => {
  test('flags, keywords, $Forwarded, and \\Recent never set', () => {
    assert.deepEqual(criterion('UNSEEN'), { kind: 'flag', flag: 'seen', set: false });
    assert.deepEqual(criterion('KEYWORD $Forwarded'), { kind: 'flag', flag: 'forwarded', set: true });
    assert.deepEqual(criterion('UNKEYWORD Work'), { kind: 'keyword', keyword: 'Work', set: false });
    assert.deepEqual(criterion('RECENT'), { kind: 'none' });
    assert.deepEqual(criterion('OLD'), { kind: 'all' });
    assert.deepEqual(criterion('NEW'), { kind: 'none' });
  });

  test('sequence numbers and UID sets become the UID ranges of the messages the session knows', () => {
    assert.deepEqual(criterion('2:4'), { kind: 'uids', ranges: [[4, 9]] });
    assert.deepEqual(criterion('1,*'), {
      kind: 'uids',
      ranges: [
        [3, 3],
        [20, 20],
      ],
    });
    assert.deepEqual(criterion('UID 5:10'), { kind: 'uids', ranges: [[7, 9]] });
    assert.deepEqual(criterion('UID 100:*'), { kind: 'uids', ranges: [[20, 20]] });
  });

  test('fields, text, dates and sizes; NOT and OR nest; HEADER on an unkept field only where every match meets it', () => {
    assert.deepEqual(criterion('OR FROM ann NOT BODY 회의록'), {
      kind: 'or',
      left: { kind: 'field', field: 'from', value: 'ann' },
      right: { kind: 'not', criterion: { kind: 'text', value: '회의록' } },
    });
    assert.deepEqual(criterion('HEADER Message-ID <a@b>'), { kind: 'field', field: 'message-id', value: '<a@b>' });
    assert.deepEqual(criterion('SENTSINCE 1-Feb-2026 LARGER 10'), {
      kind: 'and',
      criteria: [
        { kind: 'date', of: 'sent', comparison: 'since', day: '2026-02-01' },
        { kind: 'size', comparison: 'larger', bytes: 10 },
      ],
    });
    assert.deepEqual(criterion('UNSEEN HEADER X-Mailer foo'), {
      kind: 'and',
      criteria: [
        { kind: 'flag', flag: 'seen', set: false },
        { kind: 'header', field: 'X-MAILER', value: 'foo' },
      ],
    });
    assert.deepEqual(criterion('BCC boss'), { kind: 'header', field: 'BCC', value: 'boss' });
    for (const refused of ['NOT HEADER X-Mailer foo', 'OR SEEN HEADER X-Mailer foo'])
      assert.throws(
        () => criterion(refused),
        (error: ImapCommandError) => error.status === 'NO' && error.code === 'CANNOT',
      );
  });

  test('MODSEQ anywhere asks for the highest MODSEQ in the answer', () => {
    assert.equal(asksModseq(parseSearchCommand(parseCommand({ lines: ['a SEARCH OR SEEN MODSEQ 5'], literals: [] }).args).key), true);
    assert.equal(asksModseq(parseSearchCommand(parseCommand({ lines: ['a SEARCH SEEN'], literals: [] }).args).key), false);
  });

  test('ESEARCH answers: an empty RETURN is ALL; MIN, MAX and ALL only when something matched', () => {
    assert.equal(esearchLine('t1', true, ['MIN', 'MAX', 'COUNT', 'ALL'], [2, 3, 4, 9], undefined), '* ESEARCH (TAG "t1") UID MIN 2 MAX 9 COUNT 4 ALL 2:4,9');
    assert.equal(esearchLine('t2', false, [], [5], 12), '* ESEARCH (TAG "t2") ALL 5 MODSEQ 12');
    assert.equal(esearchLine('t3', false, ['MIN', 'COUNT'], [], undefined), '* ESEARCH (TAG "t3") COUNT 0');
  });

  test('SAVE keeps MIN and/or MAX alone when asked with neither ALL nor COUNT, else all found (RFC 5182 2.4)', () => {
    const found = [3, 7, 9, 20];
    assert.deepEqual(savedPart(['SAVE'], found), found);
    assert.deepEqual(savedPart(['SAVE', 'MIN'], found), [3]);
    assert.deepEqual(savedPart(['MAX', 'SAVE'], found), [20]);
    assert.deepEqual(savedPart(['SAVE', 'MIN', 'MAX'], found), [3, 20]);
    assert.deepEqual(savedPart(['SAVE', 'MIN', 'MAX'], [7]), [7]);
    assert.deepEqual(savedPart(['SAVE', 'MIN', 'COUNT'], found), found);
    assert.deepEqual(savedPart(['SAVE', 'MAX', 'ALL'], found), found);
    assert.deepEqual(savedPart(['SAVE', 'MIN'], []), []);
  });

  test('$ in SEARCH reads the saved result as UID ranges', () => {
    const saving = mailboxOfFive();
    saving.saveResult([4, 7, 20]);
    const key = parseSearchCommand(parseCommand({ lines: ['a SEARCH $'], literals: [] }).args).key;
    assert.deepEqual(searchCriterion(key, saving), {
      kind: 'uids',
      ranges: [
        [4, 7],
        [20, 20],
      ],
    });
  });
});
