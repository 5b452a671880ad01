/** The languages Letterbox writes its own notices in (bounces, out-of-office wording); the user's locale chooses. */
export type NoticeLanguage = 'en' | 'ko';

/** The notice's language for a user's locale (users.locale, null until they choose): English where Letterbox has none in theirs. */
export function noticeLanguageFor(locale: string | null): NoticeLanguage {
  return locale === 'ko' ? 'ko' : 'en';
}
