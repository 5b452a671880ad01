import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { disableTotp, startTotpSetup } from '../api/account';
import type { TotpSetup as Setup } from '../api/types';
import { useAction } from '../shared/useAction';
import { TotpSetup } from './TotpSetup';

interface Props {
  enabled: boolean;
  onChanged(): Promise<void>;
}

/** Two-factor sign-in: set up with an authenticator app, or turned off with the password. */
export function TwoFactorSettings({ enabled, onChanged }: Props) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [password, setPassword] = useState('');
  const { run, busy, error } = useAction();

  async function start() {
    const started = await run(startTotpSetup);
    if (started) setSetup(started.value);
  }

  async function turnOff(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      await disableTotp(password);
      setPassword('');
      await onChanged();
    });
  }

  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h3 id="two-factor-title">{t('twoFactor.title')}</h3>
      {setup ? (
        <TotpSetup
          setup={setup}
          onDone={() => {
            setSetup(null);
            void onChanged();
          }}
          onCancel={() => setSetup(null)}
        />
      ) : enabled ? (
        <form className="stacked-form" onSubmit={(event) => void turnOff(event)}>
          <p className="status-on">{t('twoFactor.on')}</p>
          <label htmlFor="totp-off-password">{t('common.password')}</label>
          <input
            id="totp-off-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="danger" disabled={busy}>
            {t('twoFactor.turnOff')}
          </button>
        </form>
      ) : (
        <>
          <p className="muted">{t('twoFactor.off')}</p>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="button" className="primary" disabled={busy} onClick={() => void start()}>
            {t('twoFactor.setUp')}
          </button>
        </>
      )}
    </section>
  );
}
