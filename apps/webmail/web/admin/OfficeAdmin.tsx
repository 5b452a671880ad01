import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeOffice, fetchOffice } from '../api/admin';
import { messageOf } from '../api/http';
import type { Office } from '../api/types';
import { FormError } from '../shared/FormError';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { useAction } from '../shared/useAction';

/** Office-wide settings: whether everyone must sign in with a second factor. */
export function OfficeAdmin() {
  const { t } = useTranslation();
  const [office, setOffice] = useState<Office | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { run, busy, error } = useAction();

  useEffect(() => {
    fetchOffice().then(setOffice, (failure: unknown) => setLoadError(messageOf(failure)));
  }, []);

  /** Shown at once, put back if the API refuses it. */
  async function setRequireTotp(current: Office, requireTotp: boolean) {
    setOffice({ ...current, requireTotp });
    const saved = await run(() => changeOffice({ requireTotp }));
    setOffice(saved ? saved.value : current);
  }

  if (loadError) return <ErrorMessage message={loadError} />;
  if (!office) return <Loading />;
  return (
    <section aria-label={t('admin.section.office')} className="card">
      <h3>
        {office.name} <span className="muted">{office.domain}</span>
      </h3>
      <label className="check">
        <input type="checkbox" checked={office.requireTotp} disabled={busy} onChange={(event) => void setRequireTotp(office, event.target.checked)} />{' '}
        {t('admin.requireTotp')}
      </label>
      <FormError message={error} />
    </section>
  );
}
