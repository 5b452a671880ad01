import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addAlias, removeAlias } from '../api/admin';
import type { AdminUser } from '../api/types';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';

/** The user's extra addresses: mail to them arrives in the user's inbox, and the user may send from them. */
export function UserAliases({ user, onChanged }: { user: AdminUser; onChanged(user: AdminUser): void }) {
  const { t } = useTranslation();
  const [address, setAddress] = useState('');
  const { run, busy, error } = useAction();
  const id = `user-${user.id}-alias`;

  async function add(event: FormEvent) {
    event.preventDefault();
    const saved = await run(() => addAlias(user.id, address.trim()));
    if (!saved) return;
    setAddress('');
    onChanged(saved.value);
  }

  async function remove(alias: string) {
    if (await run(() => removeAlias(user.id, alias))) onChanged({ ...user, aliases: user.aliases.filter((one) => one !== alias) });
  }

  return (
    <form className="admin-form" onSubmit={(event) => void add(event)}>
      <p>{t('admin.aliases')}</p>
      {user.aliases.length === 0 ? (
        <p className="muted">{t('admin.none')}</p>
      ) : (
        <ul className="chip-list" aria-label={t('admin.aliasesOf', { email: user.email })}>
          {user.aliases.map((alias) => (
            <li key={alias}>
              {alias}{' '}
              <button type="button" className="icon" aria-label={t('admin.removeNamed', { name: alias })} disabled={busy} onClick={() => void remove(alias)}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={id}>{t('admin.newAlias')}</label>
      <input id={id} type="email" required value={address} onChange={(event) => setAddress(event.target.value)} />
      <FormError message={error} />
      <span className="form-buttons">
        <button type="submit" disabled={busy}>
          {t('admin.addAlias')}
        </button>
      </span>
    </form>
  );
}
