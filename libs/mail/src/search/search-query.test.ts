import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSearchQuery } from './search-query';
import { searchableText } from './search-text';

describe('parseSearchQuery', () => {
  test('words, quoted phrases and excluded words are text; operators are taken out', () => {
    const query = parseSearchQuery('budget "quarterly review" -draft from:ann@x.test to:"Bob Lee" subject:Plan in:Projects');
    assert.deepEqual(query.terms, [
      { text: 'budget', excluded: false },
      { text: 'quarterly review', excluded: false },
      { text: 'draft', excluded: true },
    ]);
    assert.equal(query.from, 'ann@x.test');
    assert.equal(query.to, 'Bob Lee');
    assert.equal(query.subject, 'Plan');
    assert.equal(query.mailbox, 'Projects');
  });

  test('flags, attachments, dates and sizes', () => {
    const query = parseSearchQuery('has:attachment is:unread is:starred after:2026-01-02 before:2026/3/4 larger:10M smaller:500k');
    assert.equal(query.hasAttachments, true);
    assert.equal(query.seen, false);
    assert.equal(query.flagged, true);
    assert.deepEqual(query.since, new Date('2026-01-02T00:00:00Z'));
    assert.deepEqual(query.until, new Date('2026-03-04T00:00:00Z'));
    assert.equal(query.minSize, 10 * 1024 * 1024);
    assert.equal(query.maxSize, 500 * 1024);
    assert.deepEqual(query.terms, []);
  });

  test('a colon that is no operator stays text; punctuation alone is no term', () => {
    assert.deepEqual(
      parseSearchQuery('meet at 10:30 https://x.test ...').terms.map((term) => term.text),
      ['meet', 'at', '10:30', 'https://x.test'],
    );
  });

  test('a bad operator value is an error that names it', () => {
    assert.throws(() => parseSearchQuery('is:purple'), /q: is: must be one of unread/);
    assert.throws(() => parseSearchQuery('before:yesterday'), /q: before: must be a date like 2026-01-31/);
    assert.throws(() => parseSearchQuery('before:2026-02-30'), /q: before: must be a date/);
    assert.throws(() => parseSearchQuery('larger:huge'), /q: larger: must be a size/);
    assert.throws(() => parseSearchQuery('larger:2G'), /q: larger: must be a size below 2G/);
    assert.throws(() => parseSearchQuery('smaller:9999999999G'), /q: smaller: must be a size below 2G/);
    assert.throws(() => parseSearchQuery('has:pony'), /q: has: knows only has:attachment/);
    assert.throws(() => parseSearchQuery('-from:ann'), /operators cannot be excluded/);
    assert.throws(() => parseSearchQuery(Array.from({ length: 21 }, (_, index) => `w${index}`).join(' ')), /at most 20 words/);
  });

  test('an unterminated quote runs to the end; a long hostile query is parsed in one pass', () => {
    assert.deepEqual(parseSearchQuery('"open phrase').terms, [{ text: 'open phrase', excluded: false }]);
    const started = process.hrtime.bigint();
    assert.equal(parseSearchQuery(`${'a:'.repeat(50_000)} ${'"'.repeat(1000)} ${' -'.repeat(20_000)}`).terms.length, 1);
    assert.ok(process.hrtime.bigint() - started < 2_000_000_000n);
  });
});

describe('searchableText', () => {
  test('CJK runs become overlapping character pairs; other text is left as it is', () => {
    assert.equal(searchableText('회의록을 보냈다').trim().replace(/\s+/g, ' '), '회의 의록 록을 보냈 냈다');
    assert.equal(searchableText('Q3회의 notes').trim().replace(/\s+/g, ' '), 'Q3 회의 notes');
    assert.equal(searchableText('東京都の会議').trim().replace(/\s+/g, ' '), '東京 京都 都の の会 会議');
  });
});
