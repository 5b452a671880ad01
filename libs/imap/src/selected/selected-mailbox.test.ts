import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSequenceSet, SAVED_RESULT } from '../protocol/sequence-set';
import { SelectedMailbox } from './selected-mailbox';

const mailbox = (uids: number[]) =>
  new SelectedMailbox({ mailboxId: 1, name: 'INBOX', readOnly: false, uidValidity: 7, highestModseq: 3, uidRuns: uids.map((uid) => [uid, uid] as const) });

describe('a selected mailbox numbers its UIDs in order', () => {
  test('runs of consecutive UIDs are numbered one by one', () => {
    const selected = new SelectedMailbox({
      mailboxId: 1,
      name: 'INBOX',
      readOnly: false,
      uidValidity: 7,
      highestModseq: 3,
      uidRuns: [
        [2, 4],
        [9, 9],
        [11, 12],
      ],
    });
    assert.deepEqual(selected.uidsIn(parseSequenceSet('1:*'), false), [2, 3, 4, 9, 11, 12]);
    assert.equal(selected.seqOf(11), 5);
  });

  test('sequence numbers and UIDs map both ways', () => {
    const selected = mailbox([3, 5, 9]);
    assert.equal(selected.exists, 3);
    assert.equal(selected.uidAt(2), 5);
    assert.equal(selected.uidAt(4), undefined);
    assert.equal(selected.seqOf(9), 3);
    assert.equal(selected.seqOf(4), undefined);
    assert.equal(selected.lastUid, 9);
  });

  test('sequence sets name positions, * the last message, past the end nothing', () => {
    const selected = mailbox([3, 5, 9, 12]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('2:*'), false), [5, 9, 12]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('*,1'), false), [3, 12]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('3:10'), false), [9, 12]);
  });

  test('UID sets name the UIDs there are; n:* takes the last UID even past it', () => {
    const selected = mailbox([3, 5, 9, 12]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('4:9'), true), [5, 9]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('1:*'), true), [3, 5, 9, 12]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('100:*'), true), [12]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('6:8'), true), []);
    assert.deepEqual(mailbox([]).uidsIn(parseSequenceSet('1:*'), true), []);
    assert.deepEqual(selected.indexRanges(parseSequenceSet('3,5:12'), true), [
      [0, 1],
      [1, 4],
    ]);
  });

  test('expunges shift the numbers after them; new UIDs are numbered last', () => {
    const selected = mailbox([3, 5, 9, 12]);
    selected.expunge(new Set([5, 12]));
    assert.equal(selected.seqOf(9), 2);
    selected.append([20, 21]);
    assert.deepEqual(selected.uidsIn(parseSequenceSet('1:*'), false), [3, 9, 20, 21]);
    assert.equal(selected.exists, 4);
  });

  test('the UIDs it knows within vanished ranges, the ranges as wide as they come', () => {
    const selected = mailbox([3, 5, 9, 12]);
    assert.deepEqual(
      selected.knownIn([
        [1, 4],
        [6, 4_000_000_000],
      ]),
      [3, 9, 12],
    );
    assert.deepEqual(selected.knownIn([[6, 8]]), []);
  });

  test('$ (SEARCHRES) names the saved messages in UID and number commands alike, as few UID ranges', () => {
    const selected = mailbox([3, 5, 9, 12, 20, 21]);
    assert.deepEqual(selected.uidsIn(SAVED_RESULT, false), [], 'nothing saved: $ is empty');
    selected.saveResult([5, 9, 12, 21, 40]);
    assert.deepEqual(selected.uidsIn(SAVED_RESULT, false), [5, 9, 12, 21]);
    assert.deepEqual(selected.uidsIn(SAVED_RESULT, true), [5, 9, 12, 21]);
    assert.deepEqual(selected.uidSet(SAVED_RESULT), [
      { from: 5, to: 12 },
      { from: 21, to: 21 },
    ]);
    assert.deepEqual(selected.uidSet(parseSequenceSet('1:2')), parseSequenceSet('1:2'));
  });

  test('$ loses the messages expunged, never gains new mail, and a new save replaces it', () => {
    const selected = mailbox([3, 5, 9, 12]);
    selected.saveResult([5, 9, 12]);
    selected.expunge(new Set([9]));
    assert.deepEqual(selected.uidsIn(SAVED_RESULT, false), [5, 12]);
    assert.deepEqual(selected.indexRanges(SAVED_RESULT, false), [[1, 3]]);
    selected.append([13, 14]);
    assert.deepEqual(selected.uidsIn(SAVED_RESULT, true), [5, 12]);
    selected.saveResult([]);
    assert.deepEqual(selected.uidsIn(SAVED_RESULT, true), []);
  });

  test('a large saved result of every other message is kept as UID pairs, read back whole', () => {
    const uids = Array.from({ length: 100_000 }, (_, index) => index + 1);
    const selected = mailbox(uids);
    selected.saveResult(uids.filter((uid) => uid % 2 === 0));
    assert.equal(selected.uidsIn(SAVED_RESULT, false).length, 50_000);
    selected.saveResult(uids);
    assert.deepEqual(selected.uidSet(SAVED_RESULT), [{ from: 1, to: 100_000 }]);
  });
});
