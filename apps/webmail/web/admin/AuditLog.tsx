import { useCallback, useState, type FormEvent } from 'react';
import { fetchAudit } from '../api/admin';
import { formatFullDate } from '../shared/format';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { usePages } from './usePages';

const PAGE_SIZE = 50;

/** Who did what, when and from where: admin actions and security events, newest first, filtered by action or actor. */
export function AuditLog() {
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
    <section aria-label="Audit log">
      <form className="admin-toolbar" onSubmit={apply}>
        <label htmlFor="audit-action">Action</label>
        <input id="audit-action" placeholder="e.g. user.create" value={typed.action} onChange={(event) => setTyped({ ...typed, action: event.target.value })} />
        <label htmlFor="audit-actor">Actor</label>
        <input id="audit-actor" placeholder="address" value={typed.actor} onChange={(event) => setTyped({ ...typed, actor: event.target.value })} />
        <button type="submit">Filter</button>
      </form>
      {events.error && <ErrorMessage message={events.error} onRetry={() => void events.reload()} />}
      {!events.items && !events.error && <Loading label="Loading the audit log…" />}
      {events.items && (
        <table className="admin-table audit-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Client</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {events.items.length === 0 && (
              <tr>
                <td colSpan={6}>Nothing recorded.</td>
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
          {events.loading ? 'Loading…' : 'Older events'}
        </button>
      )}
    </section>
  );
}
