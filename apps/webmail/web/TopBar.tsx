import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Me, User } from './api/types';
import type { LiveState } from './live/useLiveEvents';
import { Icon } from './shared/Icon';
import { pageHash, type Page } from './shared/route';

/** The menu button of a phone, which opens the mailboxes' drawer. */
export interface DrawerToggle {
  open: boolean;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onToggle(): void;
}

interface Props {
  user: User;
  me: Me | null;
  page: Page;
  live: LiveState;
  drawer: DrawerToggle;
  onCompose(): void;
  onSignOut(): void;
}

const LIVE_LABELS = { live: 'topBar.live', connecting: 'topBar.connecting', offline: 'topBar.offline' } as const satisfies Record<LiveState, string>;

/** On a phone the account's links are icons, their words left for screen readers (styles/phone.css). */
export function TopBar({ user, me, page, live, drawer, onCompose, onSignOut }: Props) {
  const { t } = useTranslation();
  const current = (kind: Page['kind']) => (page.kind === kind ? 'page' : undefined);
  return (
    <header className="topbar">
      {page.kind === 'mail' && (
        <button
          ref={drawer.buttonRef}
          type="button"
          className="icon drawer-button"
          aria-expanded={drawer.open}
          aria-controls="mailbox-drawer"
          aria-label={t('topBar.mailboxes')}
          onClick={drawer.onToggle}
        >
          <Icon name="menu" />
        </button>
      )}
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
            <Icon name="admin" className="phone-only" />
            <span className="phone-spoken">{t('topBar.administration')}</span>
          </a>
        )}
        <a href={pageHash({ kind: 'settings' })} aria-current={current('settings')}>
          <Icon name="settings" className="phone-only" />
          <span className="phone-spoken">{t('topBar.settings')}</span>
        </a>
      </nav>
      <span className="user" title={user.email}>
        {user.displayName || user.email}
      </span>
      <button type="button" className="sign-out" onClick={onSignOut}>
        <Icon name="signOut" className="phone-only" />
        <span className="phone-spoken">{t('common.signOut')}</span>
      </button>
    </header>
  );
}
