import { useTranslation } from 'react-i18next';
import { changeProfile } from '../api/account';
import { switchLanguage } from '../i18n/i18n';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../i18n/language';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';

/** The webmail's language: it changes at once, and is saved with the account so every device signs in to it. */
export function LanguageSettings({ onChanged }: { onChanged(): Promise<void> }) {
  const { t, i18n } = useTranslation();
  const { run, busy, error } = useAction();

  async function choose(language: Language) {
    switchLanguage(language);
    if (await run(() => changeProfile({ locale: language }))) await onChanged();
  }

  return (
    <section className="card" aria-labelledby="language-title">
      <h3 id="language-title">{t('settings.languageTitle')}</h3>
      <div className="stacked-form">
        <label htmlFor="language-select">{t('settings.language')}</label>
        <select
          id="language-select"
          value={i18n.language}
          disabled={busy}
          onChange={(event) => {
            if (isLanguage(event.target.value)) void choose(event.target.value);
          }}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
        <FormError message={error} />
      </div>
    </section>
  );
}
