export const LANGUAGES = ['en', 'ko'] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: unknown): value is Language => LANGUAGES.some((language) => language === value);

/** The first of the browser's preferred languages the webmail speaks (ko-KR is Korean), else English. */
export function preferredLanguage(browserLanguages: readonly string[]): Language {
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

/** Each language by its own name, as a language menu shows it whatever language the page is in. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ko: '한국어' };
