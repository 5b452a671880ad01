import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isLanguage, preferredLanguage } from '../web/i18n/language';

describe("the webmail's language from the browser's", () => {
  test('Korean in any region is Korean', () => {
    assert.equal(preferredLanguage(['ko-KR', 'en-US']), 'ko');
    assert.equal(preferredLanguage(['ko']), 'ko');
    assert.equal(preferredLanguage(['KO-kr']), 'ko');
  });

  test('the first language the webmail speaks wins', () => {
    assert.equal(preferredLanguage(['en-GB', 'ko-KR']), 'en');
    assert.equal(preferredLanguage(['ja-JP', 'ko-KR']), 'ko');
  });

  test('any other language, or none, is English', () => {
    assert.equal(preferredLanguage(['fr-FR', 'de']), 'en');
    assert.equal(preferredLanguage([]), 'en');
  });

  test('only the languages it speaks are languages', () => {
    assert.ok(isLanguage('ko'));
    assert.ok(isLanguage('en'));
    assert.ok(!isLanguage('ko-KR'));
    assert.ok(!isLanguage(undefined));
  });
});
