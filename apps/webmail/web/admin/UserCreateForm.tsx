import { useState, type FormEvent } from 'react';
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
      setError('The quota must be a number of megabytes, or empty for the default.');
      return;
    }
    const created = await run(() =>
      createUser({ email: email.trim(), displayName: displayName.trim(), password, role, ...(quotaBytes === null ? {} : { quotaBytes }) }),
    );
    if (created) onCreated(created.value);
  }

  return (
    <form className="admin-form card" aria-label="New user" onSubmit={(event) => void submit(event)}>
      <label htmlFor="new-user-email">Address</label>
      <input id="new-user-email" type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
      <label htmlFor="new-user-name">Display name</label>
      <input id="new-user-name" required value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
      <label htmlFor="new-user-password">Initial password</label>
      <input
        id="new-user-password"
        type="text"
        autoComplete="off"
        required
        minLength={8}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <label htmlFor="new-user-role">Role</label>
      <select id="new-user-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
        <option value="user">User</option>
        <option value="admin">Administrator</option>
      </select>
      <label htmlFor="new-user-quota">Quota in MB (empty: the default)</label>
      <input id="new-user-quota" inputMode="numeric" value={quota} onChange={(event) => setQuota(event.target.value)} />
      <FormError message={error} />
      <span className="form-buttons">
        <button type="submit" className="primary" disabled={busy}>
          Create user
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}
