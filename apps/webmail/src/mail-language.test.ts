import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mailLanguage } from '../web/reader/mail-language';

const headers = (...values: string[]) => values.map((value) => ({ name: 'Content-Language', value }));

describe("a mail's language, from its Content-Language header", () => {
  test('one language tag is the language, whatever the header name’s case', () => {
    assert.equal(mailLanguage(headers('ko')), 'ko');
    assert.equal(mailLanguage([{ name: 'content-language', value: ' en-US ' }]), 'en-US');
    assert.equal(mailLanguage(headers('zh-Hant-TW')), 'zh-Hant-TW');
  });

  test('no header, a list of languages, or what is not a language tag names none', () => {
    assert.equal(mailLanguage([{ name: 'Subject', value: 'ko' }]), undefined);
    assert.equal(mailLanguage(headers('en, ko')), undefined);
    assert.equal(mailLanguage(headers('"><script>')), undefined);
    assert.equal(mailLanguage(headers('')), undefined);
  });
});
