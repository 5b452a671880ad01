import type { MailDetail } from '../api/types';

/** One language tag (BCP 47's shape: ko, en-US, zh-Hant-TW); longer values are not a language. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,6}$/;

/**
 * The language a mail says it is written in (its Content-Language header), for the `lang` of what shows
 * its body: fonts and screen readers follow it. A list of languages (a mail in several) names none, as
 * HTML's own content-language pragma does, and so does anything that is not a language tag.
 */
export function mailLanguage(headers: MailDetail['headers']): string | undefined {
  const header = headers.find((candidate) => candidate.name.toLowerCase() === 'content-language');
  const value = header?.value.trim();
  return value && LANGUAGE_TAG.test(value) ? value : undefined;
}
