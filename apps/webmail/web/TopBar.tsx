import type { Me, User } from './api/types';
import type { LiveState } from './live/useLiveEvents';
import { pageHash, type Page } from './shared/route';

interface Props {
  user: User;
  me: Me | null;
  page: Page;
  live: LiveState;
  onCompose(): void;
  onSignOut(): void;
}

const LIVE_LABELS: Record<LiveState, string> = { live: 'Live', connecting: 'Connecting…', offline: 'Live updates paused' };

export function TopBar({ user, me, page, live, onCompose, onSignOut }: Props) {
  const current = (kind: Page['kind']) => (page.kind === kind ? 'page' : undefined);
  return (
    <header className="topbar">
      <h1 className="brand">
        <a href={pageHash({ kind: 'mail' })} className="brand-link" aria-current={current('mail')}>
          <span className="logo" aria-hidden="true">
            ✉
          </span>{' '}
          Letterbox
        </a>
      </h1>
      <button type="button" className="primary compose-button" onClick={onCompose} title="Compose (c)" aria-label="Compose">
        ✎ <span className="label">Compose</span>
      </button>
      <span className={`live live-${live}`} role="status" title="New mail appears without reloading while live">
        <span className="dot" aria-hidden="true" /> <span className="label">{LIVE_LABELS[live]}</span>
      </span>
      <nav className="account-links" aria-label="Account">
        {me?.role === 'admin' && (
          <a href={pageHash({ kind: 'admin', section: 'users' })} aria-current={current('admin')}>
            Administration
          </a>
        )}
        <a href={pageHash({ kind: 'settings' })} aria-current={current('settings')}>
          Settings
        </a>
      </nav>
      <span className="user" title={user.email}>
        {user.displayName || user.email}
      </span>
      <button type="button" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}
