import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmTotp } from '../api/account';
import type { TotpSetup as Setup } from '../api/types';
import { useAction } from '../shared/useAction';
import { RecoveryCodes } from './RecoveryCodes';

/* The QR encoder is loaded by the few who set up two-factor sign-in, not by every inbox. */
const QrCode = lazy(() => import('../shared/QrCode').then((module) => ({ default: module.QrCode })));

interface Props {
  setup: Setup;
  onDone(): void;
  onCancel(): void;
}

/** A new secret shown as a QR code (and as text), turned on once a code from the app proves it was saved. */
export function TotpSetup({ setup, onDone, onCancel }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const { run, busy, error } = useAction();

  async function confirm(event: FormEvent) {
    event.preventDefault();
    const confirmed = await run(() => confirmTotp(code.trim()));
    if (confirmed) setRecoveryCodes(confirmed.value.recoveryCodes);
  }

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={onDone} />;
  return (
    <form className="stacked-form totp-setup" onSubmit={(event) => void confirm(event)}>
      <p>{t('twoFactor.scan')}</p>
      <Suspense fallback={<div className="qr-code" />}>
        <QrCode text={setup.otpauthUrl} label={t('twoFactor.qrLabel')} />
      </Suspense>
      <p className="muted">
        {t('twoFactor.cannotScan')} <code className="totp-secret">{setup.secret}</code>
      </p>
      <label htmlFor="totp-confirm-code">{t('twoFactor.code')}</label>
      <input
        id="totp-confirm-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        required
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <span className="form-buttons">
        <button type="submit" className="primary" disabled={busy}>
          {t('twoFactor.turnOn')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </span>
    </form>
  );
}
