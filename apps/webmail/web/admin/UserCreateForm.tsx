import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createUser } from '../api/admin';
import type { AdminUser, Role } from '../api/types';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';
import { quotaFromField } from './quota';

interface Props {
  onCreated(user: AdminUser): void;
  onCancel(): void;
}

/** A new user with an initial password, which they must change when they first sign in. */
export function UserCreateForm({ onCreated, onCancel }: Props) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [quota, setQuota] = useState('');
  const { run, busy, error, setError } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const quotaBytes = quotaFromField(quota);
    if (quotaBytes === 'invalid') {
      setError(t('admin.invalidQuota'));
      return;
    }
    const created = await run(() =>
      createUser({ email: email.trim(), displayName: displayName.trim(), password, role, ...(quotaBytes === null ? {} : { quotaBytes }) }),
    );
    if (created) onCreated(created.value);
  }

  return (
    <form className="admin-form card" aria-label={t('admin.newUser')} onSubmit={(event) => void submit(event)}>
      <label htmlFor="new-user-email">{t('admin.address')}</label>
      <input id="new-user-email" type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
      <label htmlFor="new-user-name">{t('admin.displayName')}</label>
      <input id="new-user-name" required value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
      <label htmlFor="new-user-password">{t('admin.initialPassword')}</label>
      <input
        id="new-user-password"
        type="text"
        autoComplete="off"
        required
        minLength={8}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <label htmlFor="new-user-role">{t('admin.role')}</label>
      <select id="new-user-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
        <option value="user">{t('admin.user')}</option>
        <option value="admin">{t('admin.administrator')}</option>
      </select>
      <label htmlFor="new-user-quota">{t('admin.quota')}</label>
      <input id="new-user-quota" inputMode="numeric" value={quota} onChange={(event) => setQuota(event.target.value)} />
      <FormError message={error} />
      <span className="form-buttons">
        <button type="submit" className="primary" disabled={busy}>
          {t('admin.createUser')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </span>
    </form>
  );
}
