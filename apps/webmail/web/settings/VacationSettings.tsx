import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbort, messageOf } from '../api/http';
import type { Vacation } from '../api/types';
import { fetchVacation, saveVacation } from '../api/vacation';
import { useAction } from '../shared/useAction';

/** A date input's value (local day) of an ISO time, and back: a reply starts at the start of its first day and ends at the start of the day after its last. */
const dayOf = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString('sv-SE') : '');
const startOfDay = (day: string, plusDays = 0) => {
  if (!day) return null;
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
};

/** The out-of-office reply: on or off, between two days or until turned off, with its subject and text. */
export function VacationSettings() {
  const { t } = useTranslation();
  const [vacation, setVacation] = useState<Vacation | null>(null);
  const [firstDay, setFirstDay] = useState('');
  const [lastDay, setLastDay] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const { run, busy, error } = useAction();

  useEffect(() => {
    const abort = new AbortController();
    fetchVacation(abort.signal).then(
      (loaded) => {
        setVacation(loaded);
        setFirstDay(dayOf(loaded.from));
        setLastDay(loaded.until ? dayOf(new Date(new Date(loaded.until).getTime() - 86_400_000).toISOString()) : '');
      },
      (failure: unknown) => {
        if (!isAbort(failure)) setLoadError(messageOf(failure));
      },
    );
    return () => abort.abort();
  }, []);

  const change = (fields: Partial<Vacation>) => {
    setVacation((current) => (current ? { ...current, ...fields } : current));
    setSaved(false);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!vacation) return;
    const answered = await run(() => saveVacation({ ...vacation, from: startOfDay(firstDay), until: startOfDay(lastDay, 1) }));
    if (answered) {
      setVacation(answered.value);
      setSaved(true);
    }
  }

  return (
    <section className="card" aria-labelledby="vacation-title">
      <h3 id="vacation-title">{t('vacation.title')}</h3>
      <p className="muted">{t('vacation.hint')}</p>
      {loadError && (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      {vacation && (
        <form className="stacked-form" onSubmit={(event) => void save(event)}>
          <label>
            <input type="checkbox" checked={vacation.enabled} onChange={(event) => change({ enabled: event.target.checked })} /> {t('vacation.enabled')}
          </label>
          <label htmlFor="vacation-first-day">{t('vacation.firstDay')}</label>
          <input id="vacation-first-day" type="date" value={firstDay} onChange={(event) => setFirstDay(event.target.value)} />
          <label htmlFor="vacation-last-day">{t('vacation.lastDay')}</label>
          <input id="vacation-last-day" type="date" value={lastDay} onChange={(event) => setLastDay(event.target.value)} />
          <label htmlFor="vacation-subject">{t('vacation.subject')}</label>
          <input id="vacation-subject" required maxLength={200} value={vacation.subject} onChange={(event) => change({ subject: event.target.value })} />
          <label htmlFor="vacation-text">{t('vacation.message')}</label>
          <textarea
            id="vacation-text"
            required
            rows={5}
            maxLength={10_000}
            value={vacation.text}
            onChange={(event) => change({ text: event.target.value, html: null })}
          />
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          {saved && <p role="status">{t('vacation.saved')}</p>}
          <div className="form-buttons">
            <button type="submit" className="primary" disabled={busy}>
              {t('vacation.save')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
