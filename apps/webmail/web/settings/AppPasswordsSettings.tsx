import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createAppPassword, fetchAppPasswords, revokeAppPassword } from '../api/app-passwords';
import { isAbort, messageOf } from '../api/http';
import type { AppPassword, CreatedAppPassword } from '../api/types';
import { useAction } from '../shared/useAction';

/** The passwords mail apps sign in with: made with a name, each shown once to type into the app, revoked one by one. */
export function AppPasswordsSettings() {
  const { t, i18n } = useTranslation();
  const [items, setItems] = useState<AppPassword[] | null>(null);
  const [name, setName] = useState('');
  const [made, setMade] = useState<CreatedAppPassword | null>(null);
  const [copied, setCopied] = useState(false);
  const { run, busy, error, setError } = useAction();
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  useEffect(() => {
    const abort = new AbortController();
    fetchAppPasswords(abort.signal).then(
      (list) => setItems(list.items),
      (failure: unknown) => {
        if (!isAbort(failure)) setError(messageOf(failure));
      },
    );
    return () => abort.abort();
  }, [setError]);

  async function create(event: FormEvent) {
    event.preventDefault();
    const answer = await run(() => createAppPassword(name.trim()));
    if (!answer) return;
    const { password: _shownOnce, ...listed } = answer.value;
    setItems((before) => [...(before ?? []), listed]);
    setMade(answer.value);
    setCopied(false);
    setName('');
  }

  async function revoke(appPassword: AppPassword) {
    if (await run(() => revokeAppPassword(appPassword.id))) setItems((before) => (before ?? []).filter((item) => item.id !== appPassword.id));
  }

  async function copy(password: string) {
    if (await run(() => navigator.clipboard.writeText(password))) setCopied(true);
  }

  return (
    <section className="card" aria-labelledby="app-passwords-title">
      <h3 id="app-passwords-title">{t('appPasswords.title')}</h3>
      <p className="muted">{t('appPasswords.hint')}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {made && (
        <div className="app-password-made" role="status">
          <p>{t('appPasswords.made', { name: made.name })}</p>
          <p>
            <code aria-label={t('appPasswords.title')}>{made.password}</code>
          </p>
          <div className="form-buttons">
            <button type="button" onClick={() => void copy(made.password)}>
              {t('appPasswords.copy')}
            </button>
            <button type="button" className="primary" onClick={() => setMade(null)}>
              {t('appPasswords.done')}
            </button>
          </div>
          {copied && <p>{t('appPasswords.copied')}</p>}
        </div>
      )}
      {items?.length === 0 && <p className="muted">{t('appPasswords.none')}</p>}
      {items && items.length > 0 && (
        <ul className="app-passwords" aria-labelledby="app-passwords-title">
          {items.map((item) => (
            <li key={item.id}>
              <strong>{item.name}</strong>{' '}
              <span className="muted">
                {t('appPasswords.created', { date: date(item.createdAt) })},{' '}
                {item.lastUsedAt ? t('appPasswords.lastUsed', { date: date(item.lastUsedAt) }) : t('appPasswords.neverUsed')}
              </span>{' '}
              <button type="button" disabled={busy} aria-label={t('appPasswords.revokeOne', { name: item.name })} onClick={() => void revoke(item)}>
                {t('appPasswords.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="stacked-form" aria-label={t('appPasswords.create')} onSubmit={(event) => void create(event)}>
        <label htmlFor="app-password-name">{t('appPasswords.name')}</label>
        <input id="app-password-name" required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
        <div className="form-buttons">
          <button type="submit" disabled={busy || name.trim() === ''}>
            {t('appPasswords.create')}
          </button>
        </div>
      </form>
    </section>
  );
}
