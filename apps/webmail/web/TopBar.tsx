import { useTranslation } from 'react-i18next';
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

const LIVE_LABELS = { live: 'topBar.live', connecting: 'topBar.connecting', offline: 'topBar.offline' } as const satisfies Record<LiveState, string>;

export function TopBar({ user, me, page, live, onCompose, onSignOut }: Props) {
  const { t } = useTranslation();
  const current = (kind: Page['kind']) => (page.kind === kind ? 'page' : undefined);
  return (
    <header className="topbar">
      <h1 className="brand">
        <a href={pageHash({ kind: 'mail' })} className="brand-link" aria-current={current('mail')}>
          <span className="logo" aria-hidden="true">
            ✉
          </span>{' '}
          {t('app.name')}
        </a>
      </h1>
      <button type="button" className="primary compose-button" onClick={onCompose} title={t('topBar.composeShortcut')} aria-label={t('topBar.compose')}>
        ✎ <span className="label">{t('topBar.compose')}</span>
      </button>
      <span className={`live live-${live}`} role="status" title={t('topBar.liveHint')}>
        <span className="dot" aria-hidden="true" /> <span className="label">{t(LIVE_LABELS[live])}</span>
      </span>
      <nav className="account-links" aria-label={t('topBar.account')}>
        {me?.role === 'admin' && (
          <a href={pageHash({ kind: 'admin', section: 'users' })} aria-current={current('admin')}>
            {t('topBar.administration')}
          </a>
        )}
        <a href={pageHash({ kind: 'settings' })} aria-current={current('settings')}>
          {t('topBar.settings')}
        </a>
      </nav>
      <span className="user" title={user.email}>
        {user.displayName || user.email}
      </span>
      <button type="button" onClick={onSignOut}>
        {t('common.signOut')}
      </button>
    </header>
  );
}
