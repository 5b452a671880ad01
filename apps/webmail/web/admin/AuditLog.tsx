import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAudit } from '../api/admin';
import { formatFullDate } from '../shared/format';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { usePages } from './usePages';

const PAGE_SIZE = 50;

/** Who did what, when and from where: admin actions and security events, newest first, filtered by action or actor. */
export function AuditLog() {
  const { t } = useTranslation();
  const [typed, setTyped] = useState({ action: '', actor: '' });
  const [filter, setFilter] = useState({ action: '', actor: '' });
  const fetchPage = useCallback(
    (cursor: string | null, signal: AbortSignal) =>
      fetchAudit({ ...filter, cursor, limit: PAGE_SIZE }, signal).then((page) => ({ items: page.events, nextCursor: page.nextCursor })),
    [filter],
  );
  const events = usePages(fetchPage);

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilter({ action: typed.action.trim(), actor: typed.actor.trim() });
  }

  return (
    <section aria-label={t('admin.section.audit')}>
      <form className="admin-toolbar" onSubmit={apply}>
        <label htmlFor="audit-action">{t('admin.action')}</label>
        <input
          id="audit-action"
          placeholder={t('admin.actionPlaceholder')}
          value={typed.action}
          onChange={(event) => setTyped({ ...typed, action: event.target.value })}
        />
        <label htmlFor="audit-actor">{t('admin.actor')}</label>
        <input
          id="audit-actor"
          placeholder={t('admin.actorPlaceholder')}
          value={typed.actor}
          onChange={(event) => setTyped({ ...typed, actor: event.target.value })}
        />
        <button type="submit">{t('admin.filter')}</button>
      </form>
      {events.error && <ErrorMessage message={events.error} onRetry={() => void events.reload()} />}
      {!events.items && !events.error && <Loading label={t('admin.loadingAudit')} />}
      {events.items && (
        <table className="admin-table audit-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.when')}</th>
              <th scope="col">{t('admin.actor')}</th>
              <th scope="col">{t('admin.action')}</th>
              <th scope="col">{t('admin.target')}</th>
              <th scope="col">{t('admin.client')}</th>
              <th scope="col">{t('admin.details')}</th>
            </tr>
          </thead>
          <tbody>
            {events.items.length === 0 && (
              <tr>
                <td colSpan={6}>{t('admin.nothingRecorded')}</td>
              </tr>
            )}
            {events.items.map((event) => (
              <tr key={event.id}>
                <td>{formatFullDate(event.at)}</td>
                <td>{event.actor}</td>
                <td>
                  <code>{event.action}</code>
                </td>
                <td>{event.target ?? ''}</td>
                <td>{event.clientAddress ?? ''}</td>
                <td className="details">{Object.keys(event.details).length > 0 ? JSON.stringify(event.details) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {events.hasMore && (
        <button type="button" className="link" disabled={events.loading} onClick={() => void events.more()}>
          {events.loading ? t('common.loading') : t('admin.olderEvents')}
        </button>
      )}
    </section>
  );
}
