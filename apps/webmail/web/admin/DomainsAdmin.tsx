import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addDomain, fetchDomains } from '../api/admin';
import { messageOf } from '../api/http';
import type { Domain } from '../api/types';
import { formatFullDate } from '../shared/format';
import { FormError } from '../shared/FormError';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { useAction } from '../shared/useAction';

/** The office's mail domains: addresses in them can be given to users, aliases and groups. */
export function DomainsAdmin() {
  const { t } = useTranslation();
  const [domains, setDomains] = useState<Domain[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const { run, busy, error } = useAction();

  const load = useCallback(async () => {
    try {
      setDomains(await fetchDomains());
      setLoadError(null);
    } catch (failure) {
      setLoadError(messageOf(failure));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!(await run(() => addDomain(name.trim().toLowerCase())))) return;
    setName('');
    await load();
  }

  return (
    <section aria-label={t('admin.section.domains')}>
      {loadError && <ErrorMessage message={loadError} onRetry={() => void load()} />}
      {!domains && !loadError && <Loading label={t('admin.loadingDomains')} />}
      {domains && (
        <ul className="plain-list" aria-label={t('admin.officeDomains')}>
          {domains.map((domain) => (
            <li key={domain.id}>
              <strong>{domain.name}</strong> <span className="muted">{t('admin.added', { date: formatFullDate(domain.createdAt) })}</span>
            </li>
          ))}
        </ul>
      )}
      <form className="admin-form card" onSubmit={(event) => void add(event)}>
        <label htmlFor="new-domain">{t('admin.newDomain')}</label>
        <input id="new-domain" required placeholder="example.com" value={name} onChange={(event) => setName(event.target.value)} />
        <FormError message={error} />
        <span className="form-buttons">
          <button type="submit" className="primary" disabled={busy}>
            {t('admin.addDomain')}
          </button>
        </span>
      </form>
    </section>
  );
}
