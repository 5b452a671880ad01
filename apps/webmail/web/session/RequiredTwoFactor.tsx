import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { startTotpSetup } from '../api/account';
import type { TotpSetup as Setup } from '../api/types';
import { TotpSetup } from '../settings/TotpSetup';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';

interface Props {
  email: string;
  onDone(): void;
  onSignOut(): void;
}

/** The office requires two-factor sign-in: a user without it sets it up before anything else (the API refuses the rest). */
export function RequiredTwoFactor({ email, onDone, onSignOut }: Props) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<Setup | null>(null);
  const { run, busy, error } = useAction();

  async function start() {
    const started = await run(startTotpSetup);
    if (started) setSetup(started.value);
  }

  return (
    <main className="sign-in">
      <section className="sign-in-card" aria-labelledby="required-totp-title">
        <h1 id="required-totp-title">{t('requiredTwoFactor.title')}</h1>
        <p>
          <Trans i18nKey="requiredTwoFactor.explanation" values={{ email }} components={{ strong: <strong /> }} />
        </p>
        {setup ? (
          <TotpSetup setup={setup} onDone={onDone} onCancel={() => setSetup(null)} />
        ) : (
          <>
            <FormError message={error} />
            <button type="button" className="primary" disabled={busy} onClick={() => void start()}>
              {t('common.start')}
            </button>
          </>
        )}
        <button type="button" className="link" onClick={onSignOut}>
          {t('common.signOut')}
        </button>
      </section>
    </main>
  );
}
