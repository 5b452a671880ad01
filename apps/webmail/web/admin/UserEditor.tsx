import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeUser, deleteUser } from '../api/admin';
import type { AdminUser, Role } from '../api/types';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';
import { ConfirmDelete } from './ConfirmDelete';
import { PasswordReset } from './PasswordReset';
import { quotaFromField, quotaToField } from './quota';
import { UserAliases } from './UserAliases';

interface Props {
  user: AdminUser;
  /** The administrator looking at their own account. */
  isSelf: boolean;
  onChanged(user: AdminUser): void;
  onDeleted(): void;
}

/** One user's name, role, quota and state; their aliases, a password reset, and deletion. */
export function UserEditor({ user, isSelf, onChanged, onDeleted }: Props) {
  const { t } = useTranslation();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [role, setRole] = useState<Role>(user.role);
  const [quota, setQuota] = useState(quotaToField(user.quotaBytes, user.customQuota));
  const details = useAction();
  const state = useAction();
  const id = `user-${user.id}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    const quotaBytes = quotaFromField(quota);
    if (quotaBytes === 'invalid') {
      details.setError(t('admin.invalidQuota'));
      return;
    }
    const saved = await details.run(() => changeUser(user.id, { displayName: displayName.trim(), role, quotaBytes }));
    if (saved) onChanged(saved.value);
  }

  async function toggleState() {
    const saved = await state.run(() => changeUser(user.id, { state: user.state === 'active' ? 'disabled' : 'active' }));
    if (saved) onChanged(saved.value);
  }

  return (
    <div className="user-editor" aria-label={t('admin.editNamed', { name: user.email })} role="group">
      <form className="admin-form" onSubmit={(event) => void save(event)}>
        <label htmlFor={`${id}-name`}>{t('admin.displayName')}</label>
        <input id={`${id}-name`} required value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        <label htmlFor={`${id}-role`}>{t('admin.role')}</label>
        <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as Role)}>
          <option value="user">{t('admin.user')}</option>
          <option value="admin">{t('admin.administrator')}</option>
        </select>
        <label htmlFor={`${id}-quota`}>{t('admin.quota')}</label>
        <input id={`${id}-quota`} inputMode="numeric" value={quota} onChange={(event) => setQuota(event.target.value)} />
        <FormError message={details.error} />
        <span className="form-buttons">
          <button type="submit" className="primary" disabled={details.busy}>
            {t('admin.saveChanges')}
          </button>
        </span>
      </form>
      <div className="admin-form">
        <p>
          {user.state === 'active' ? t('admin.active') : t('admin.disabled')}
          {user.totpEnabled && t('admin.totpOn')}
        </p>
        <FormError message={state.error} />
        <span className="form-buttons">
          <button type="button" className={user.state === 'active' ? 'danger' : undefined} disabled={state.busy || isSelf} onClick={() => void toggleState()}>
            {user.state === 'active' ? t('admin.disableUser') : t('admin.enableUser')}
          </button>
        </span>
      </div>
      <PasswordReset user={user} onChanged={onChanged} />
      <UserAliases user={user} onChanged={onChanged} />
      {!isSelf && (
        <ConfirmDelete
          what={t('admin.deleteNamed', { name: user.email })}
          warning={t('admin.deleteUser', { email: user.email })}
          onDelete={() => deleteUser(user.id)}
          onDeleted={onDeleted}
        />
      )}
    </div>
  );
}
