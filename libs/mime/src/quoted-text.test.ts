import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QUOTE_SCAN_CHARS, withoutQuotedText } from './quoted-text';
import { makeSnippet } from './render-body';

describe('withoutQuotedText', () => {
  it('leaves out lines quoted with ">" and the attribution above them, keeping inline answers', () => {
    const text = [
      'On Tue, 3 Nov 2026 at 10:00, Bob <bob@example.test> wrote:',
      '> Shall we meet at 3?',
      '',
      'Yes, 3 works.',
      '> And the room?',
      'Room 4.',
    ].join('\n');
    assert.equal(withoutQuotedText(text), 'Yes, 3 works.\nRoom 4.');
  });

  it('drops a top-posted answer’s quote whether or not its lines are marked', () => {
    const marked = 'See you then.\r\n\r\nOn Mon, 2 Nov 2026, Alice <alice@example.test> wrote:\r\n> Lunch tomorrow?\r\n>\r\n> A.';
    assert.equal(withoutQuotedText(marked), 'See you then.');
    const unmarked = 'See you then.\n\nOn Mon, 2 Nov 2026, Alice <alice@example.test> wrote:\n\nLunch tomorrow?\nA.';
    assert.equal(withoutQuotedText(unmarked), 'See you then.');
  });

  it('knows an attribution wrapped after the address, the Korean one, and Outlook’s separator', () => {
    assert.equal(withoutQuotedText('Fine.\nOn Mon, 2 Nov 2026 at 09:12, Alice Example\n<alice@example.test> wrote:\n> Lunch?'), 'Fine.');
    assert.equal(withoutQuotedText('좋습니다.\n\n2026년 11월 3일 (화) 오전 10:00, 김민준 <minjun@example.test>님이 작성:\n> 회의는 3시입니다.'), '좋습니다.');
    assert.equal(withoutQuotedText('Done.\n-----Original Message-----\nFrom: Bob\nSubject: Task'), 'Done.');
  });

  it('keeps words that only look like the start of an attribution', () => {
    const text = 'On Monday we ship.\nOnly then, a > b.';
    assert.equal(withoutQuotedText(text), text);
  });

  it('looks at a bounded start of the text, in one pass, however it is built', () => {
    const endless = `Answer.\n${'> quoted line\n'.repeat(200_000)}`;
    assert.equal(withoutQuotedText(endless), 'Answer.');
    const oneLongLine = `On ${'x'.repeat(5 * QUOTE_SCAN_CHARS)}`;
    assert.equal(withoutQuotedText(oneLongLine).length, QUOTE_SCAN_CHARS);
    const manyAttributions = 'On it\n'.repeat(100_000);
    assert.equal(withoutQuotedText(manyAttributions).split('\n').length, Math.ceil(QUOTE_SCAN_CHARS / 'On it\n'.length));
  });

  it('makes the snippet of an answer from its own words, and of a bare quote from the quote', () => {
    assert.equal(makeSnippet('Sounds good.\n\nOn Mon, 2 Nov 2026, Alice <alice@example.test> wrote:\n> Lunch?'), 'Sounds good.');
    assert.equal(makeSnippet('> only a quote\n> of two lines'), '> only a quote > of two lines');
  });
});
