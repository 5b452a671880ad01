import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { ko } from './ko';
import { preferredLanguage, type Language } from './language';

/** Before sign-in the browser's language is used; the account's saved language replaces it once known. */
void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, ko: { translation: ko } },
  lng: preferredLanguage(navigator.languages),
  fallbackLng: 'en',
  // Synchronous, so the first render is already in the right language.
  initAsync: false,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
});

const markDocument = (language: string) => {
  document.documentElement.lang = language;
};
markDocument(i18next.language);
i18next.on('languageChanged', markDocument);

export const currentLanguage = () => i18next.language as Language;

export function switchLanguage(language: Language): void {
  if (i18next.language !== language) void i18next.changeLanguage(language);
}

export { i18next };
