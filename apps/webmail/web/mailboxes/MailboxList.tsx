import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createMailbox, deleteMailbox, renameMailbox } from '../api/endpoints';
import { messageOf } from '../api/http';
import type { Mailbox } from '../api/types';
import { Icon, type IconName } from '../shared/Icon';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { navigate, routeHash } from '../shared/route';
import { mailboxName } from './mailbox-name';

interface Props {
  mailboxes: Mailbox[] | null;
  error: string | null;
  currentId: number | null;
  onRetry(): void;
  /** After a folder was made, renamed or deleted: resolves once the mailboxes are fetched again. */
  onChanged(): Promise<void>;
}

const ICONS: Record<string, IconName> = { inbox: 'inbox', sent: 'sent', drafts: 'drafts', spam: 'spam', trash: 'trash' };

type Editing = { kind: 'new' } | { kind: 'rename'; mailbox: Mailbox } | { kind: 'delete'; mailbox: Mailbox } | null;

/** The mailboxes with their unread counts; the user's own folders are made, renamed and deleted here. */
export function MailboxList({ mailboxes, error, currentId, onRetry, onChanged }: Props) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function start(next: Editing) {
    setEditing(next);
    setName(next?.kind === 'rename' ? next.mailbox.name : '');
    setProblem(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!editing) return;
    try {
      if (editing.kind === 'new') {
        const made = await createMailbox(name);
        await onChanged();
        navigate({ mailboxId: made.id, mailId: null });
      } else if (editing.kind === 'rename') {
        await renameMailbox(editing.mailbox.id, name);
        await onChanged();
      } else {
        await deleteMailbox(editing.mailbox.id);
        if (editing.mailbox.id === currentId) navigate({ mailboxId: null, mailId: null }, true);
        await onChanged();
      }
      start(null);
    } catch (failure) {
      setProblem(messageOf(failure));
    }
  }

  const form = (label: string, action: string) => (
    <form className="folder-form" onSubmit={(event) => void submit(event)}>
      {editing?.kind === 'delete' ? (
        <p>{t('mailbox.confirmDelete', { name: editing.mailbox.name })}</p>
      ) : (
        <>
          <label htmlFor="folder-name">{label}</label>
          <input id="folder-name" value={name} maxLength={100} autoFocus onChange={(event) => setName(event.target.value)} />
        </>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className={editing?.kind === 'delete' ? 'danger' : 'primary'}>
        {action}
      </button>
      <button type="button" onClick={() => start(null)}>
        {t('common.cancel')}
      </button>
    </form>
  );

  return (
    <nav className="mailboxes" aria-label={t('mailbox.navigation')}>
      {!mailboxes && !error && <Loading label={t('mailbox.loading')} />}
      {error && <ErrorMessage message={error} onRetry={onRetry} />}
      {mailboxes && (
        <ul>
          {mailboxes.map((mailbox) => (
            <li key={mailbox.id} className="mailbox-item">
              <a
                href={routeHash({ mailboxId: mailbox.id, mailId: null })}
                aria-current={mailbox.id === currentId ? 'page' : undefined}
                data-role={mailbox.role}
                className={mailbox.unreadCount ? 'has-unread' : undefined}
              >
                <Icon name={mailbox.locked ? 'lock' : (ICONS[mailbox.role] ?? 'folder')} className="mailbox-icon" />
                <span className="mailbox-name" title={mailboxName(mailbox)}>
                  {mailboxName(mailbox)}
                </span>
                {mailbox.locked && <span className="visually-hidden">{t('mailbox.locked')}</span>}
                {!!mailbox.unreadCount && (
                  <span className="unread-count" data-testid={`unread-${mailbox.role === 'custom' ? `folder-${mailbox.name}` : mailbox.role}`}>
                    {mailbox.unreadCount}
                    <span className="visually-hidden">{t('mailbox.unread')}</span>
                  </span>
                )}
              </a>
              {mailbox.role === 'custom' && (
                <span className="folder-actions">
                  <button
                    type="button"
                    className="icon"
                    aria-label={t('mailbox.renameNamed', { name: mailbox.name })}
                    title={t('mailbox.rename')}
                    onClick={() => start({ kind: 'rename', mailbox })}
                  >
                    ✎
                  </button>
                  <button
                    type="button"
                    className="icon"
                    aria-label={t('mailbox.deleteNamed', { name: mailbox.name })}
                    title={t('common.delete')}
                    onClick={() => start({ kind: 'delete', mailbox })}
                  >
                    ✕
                  </button>
                </span>
              )}
              {editing &&
                editing.kind !== 'new' &&
                editing.mailbox.id === mailbox.id &&
                form(t('mailbox.newName'), editing.kind === 'delete' ? t('mailbox.deleteFolder') : t('mailbox.rename'))}
            </li>
          ))}
        </ul>
      )}
      {mailboxes &&
        (editing?.kind === 'new' ? (
          form(t('mailbox.folderName'), t('mailbox.create'))
        ) : (
          <button type="button" className="link new-folder" onClick={() => start({ kind: 'new' })}>
            {t('mailbox.newFolder')}
          </button>
        ))}
    </nav>
  );
}
