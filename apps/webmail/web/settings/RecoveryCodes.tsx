import { useTranslation } from 'react-i18next';

/** The ten one-time recovery codes, shown once: each signs in in place of a code from the app. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation();
  return (
    <div className="recovery-codes">
      <p className="status-on">{t('twoFactor.isOn')}</p>
      <p>{t('twoFactor.keepCodes')}</p>
      <ol aria-label={t('twoFactor.recoveryCodes')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" className="primary" onClick={onDone}>
        {t('twoFactor.savedThem')}
      </button>
    </div>
  );
}
