import type { Mailbox } from '../api/types';
import { Icon, type IconName } from '../shared/Icon';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { routeHash } from '../shared/route';

interface Props {
  mailboxes: Mailbox[] | null;
  error: string | null;
  currentId: number | null;
  onRetry(): void;
}

const ICONS: Record<string, IconName> = { inbox: 'inbox', sent: 'sent', drafts: 'drafts', spam: 'spam', trash: 'trash' };

export function MailboxList({ mailboxes, error, currentId, onRetry }: Props) {
  return (
    <nav className="mailboxes" aria-label="Mailboxes">
      {!mailboxes && !error && <Loading label="Loading mailboxes…" />}
      {error && <ErrorMessage message={error} onRetry={onRetry} />}
      {mailboxes && (
        <ul>
          {mailboxes.map((mailbox) => (
            <li key={mailbox.id}>
              <a
                href={routeHash({ mailboxId: mailbox.id, mailId: null })}
                aria-current={mailbox.id === currentId ? 'page' : undefined}
                data-role={mailbox.role}
                className={mailbox.unreadCount ? 'has-unread' : undefined}
              >
                <Icon name={mailbox.locked ? 'lock' : (ICONS[mailbox.role] ?? 'folder')} className="mailbox-icon" />
                <span className="mailbox-name">{mailbox.name}</span>
                {mailbox.locked && <span className="visually-hidden"> (locked)</span>}
                {!!mailbox.unreadCount && (
                  <span className="unread-count" data-testid={`unread-${mailbox.role}`}>
                    {mailbox.unreadCount}
                    <span className="visually-hidden"> unread</span>
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
