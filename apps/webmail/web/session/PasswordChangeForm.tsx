import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../api/account';
import type { Session } from '../api/types';
import { useAction } from '../shared/useAction';

interface Props {
  /** How the password the user has now is called here ("Current password", "Initial password"). */
  currentLabel: string;
  submitLabel: string;
  onChanged(session: Session): void;
}

const MIN_LENGTH = 8;

/** The current password, and the new one twice; the API answers a fresh session, every other one having ended. */
export function PasswordChangeForm({ currentLabel, submitLabel, onChanged }: Props) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const { run, busy, error, setError } = useAction();
  const [changed, setChanged] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const mistake = next !== repeated ? t('password.notSame') : next.length < MIN_LENGTH ? t('password.tooShort', { count: MIN_LENGTH }) : null;
    if (mistake) {
      setError(mistake);
      return;
    }
    setChanged(false);
    const answered = await run(() => changePassword(current, next));
    if (!answered) return;
    setCurrent('');
    setNext('');
    setRepeated('');
    setChanged(true);
    onChanged(answered.value);
  }

  return (
    <form className="stacked-form" onSubmit={(event) => void submit(event)}>
      <label htmlFor="password-current">{currentLabel}</label>
      <input
        id="password-current"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onChange={(event) => setCurrent(event.target.value)}
      />
      <label htmlFor="password-new">{t('password.new')}</label>
      <input
        id="password-new"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_LENGTH}
        value={next}
        onChange={(event) => setNext(event.target.value)}
      />
      <label htmlFor="password-repeat">{t('password.repeat')}</label>
      <input id="password-repeat" type="password" autoComplete="new-password" required value={repeated} onChange={(event) => setRepeated(event.target.value)} />
      {changed && <p role="status">{t('password.changed')}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('common.saving') : submitLabel}
      </button>
    </form>
  );
}
