import { useState, type FormEvent } from 'react';
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
      details.setError('The quota must be a number of megabytes, or empty for the default.');
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
    <div className="user-editor" aria-label={`Edit ${user.email}`} role="group">
      <form className="admin-form" onSubmit={(event) => void save(event)}>
        <label htmlFor={`${id}-name`}>Display name</label>
        <input id={`${id}-name`} required value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        <label htmlFor={`${id}-role`}>Role</label>
        <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as Role)}>
          <option value="user">User</option>
          <option value="admin">Administrator</option>
        </select>
        <label htmlFor={`${id}-quota`}>Quota in MB (empty: the default)</label>
        <input id={`${id}-quota`} inputMode="numeric" value={quota} onChange={(event) => setQuota(event.target.value)} />
        <FormError message={details.error} />
        <span className="form-buttons">
          <button type="submit" className="primary" disabled={details.busy}>
            Save changes
          </button>
        </span>
      </form>
      <div className="admin-form">
        <p>
          {user.state === 'active' ? 'Active: can sign in.' : 'Disabled: cannot sign in; their mail is still accepted.'}
          {user.totpEnabled && ' Two-factor sign-in is on.'}
        </p>
        <FormError message={state.error} />
        <span className="form-buttons">
          <button type="button" className={user.state === 'active' ? 'danger' : undefined} disabled={state.busy || isSelf} onClick={() => void toggleState()}>
            {user.state === 'active' ? 'Disable user' : 'Enable user'}
          </button>
        </span>
      </div>
      <PasswordReset user={user} onChanged={onChanged} />
      <UserAliases user={user} onChanged={onChanged} />
      {!isSelf && (
        <ConfirmDelete
          what={`Delete ${user.email}`}
          warning={`Delete ${user.email}, with all of their mail? This cannot be undone.`}
          onDelete={() => deleteUser(user.id)}
          onDeleted={onDeleted}
        />
      )}
    </div>
  );
}
