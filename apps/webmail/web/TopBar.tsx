import type { User } from './api/types';
import type { LiveState } from './live/useLiveEvents';

interface Props {
  user: User;
  live: LiveState;
  onCompose(): void;
  onSignOut(): void;
}

const LIVE_LABELS: Record<LiveState, string> = { live: 'Live', connecting: 'Connecting…', offline: 'Live updates paused' };

export function TopBar({ user, live, onCompose, onSignOut }: Props) {
  return (
    <header className="topbar">
      <h1 className="brand">
        <span className="logo" aria-hidden="true">
          ✉
        </span>{' '}
        Letterbox
      </h1>
      <button type="button" className="primary compose-button" onClick={onCompose} title="Compose (c)" aria-label="Compose">
        ✎ <span className="label">Compose</span>
      </button>
      <span className={`live live-${live}`} role="status" title="New mail appears without reloading while live">
        <span className="dot" aria-hidden="true" /> <span className="label">{LIVE_LABELS[live]}</span>
      </span>
      <span className="user" title={user.email}>
        {user.displayName || user.email}
      </span>
      <button type="button" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}
