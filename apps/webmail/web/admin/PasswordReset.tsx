import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeUser } from '../api/admin';
import type { AdminUser } from '../api/types';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';

/** A new initial password: every session of the user ends, and they choose their own at the next sign-in. */
export function PasswordReset({ user, onChanged }: { user: AdminUser; onChanged(user: AdminUser): void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { run, busy, error } = useAction();
  const id = `user-${user.id}-reset`;

  async function reset(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    const saved = await run(() => changeUser(user.id, { password }));
    if (!saved) return;
    setPassword('');
    setDone(true);
    onChanged(saved.value);
  }

  return (
    <form className="admin-form" onSubmit={(event) => void reset(event)}>
      <label htmlFor={id}>{t('admin.newInitialPassword')}</label>
      <input id={id} type="text" autoComplete="off" required minLength={8} value={password} onChange={(event) => setPassword(event.target.value)} />
      <FormError message={error} />
      {done && <p role="status">{t('admin.passwordReset', { email: user.email })}</p>}
      <span className="form-buttons">
        <button type="submit" disabled={busy}>
          {t('admin.resetPassword')}
        </button>
      </span>
    </form>
  );
}
