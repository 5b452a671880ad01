import { useTranslation } from 'react-i18next';
import { logoutEverywhere } from '../api/account';
import { useAction } from '../shared/useAction';

/** Signing out on every device: for a lost phone or a shared computer left signed in. */
export function SessionsSettings({ onSessionsEnded }: { onSessionsEnded(): void }) {
  const { t } = useTranslation();
  const { run, busy, error } = useAction();

  async function signOutEverywhere() {
    await run(async () => {
      await logoutEverywhere();
      onSessionsEnded();
    });
  }

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h3 id="sessions-title">{t('settings.sessions')}</h3>
      <p className="muted">{t('settings.sessionsHint')}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="button" disabled={busy} onClick={() => void signOutEverywhere()}>
        {t('settings.signOutEverywhere')}
      </button>
    </section>
  );
}
