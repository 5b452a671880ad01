import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { unlockMailbox } from '../api/endpoints';
import type { Mailbox } from '../api/types';
import { useAction } from '../shared/useAction';
import { mailboxName } from './mailbox-name';

interface Props {
  mailbox: Mailbox;
  onUnlocked(): void;
}

/** A locked mailbox's place in the list: it opens again with the user's password. */
export function UnlockMailbox({ mailbox, onUnlocked }: Props) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const { run, busy, error } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await run(() => unlockMailbox(mailbox.id, password))) onUnlocked();
  }

  return (
    <form className="unlock-mailbox" onSubmit={(event) => void submit(event)}>
      <p className="empty">{t('mailbox.lockedExplanation', { name: mailboxName(mailbox) })}</p>
      <label htmlFor="unlock-password">{t('mailbox.yourPassword')}</label>
      <input id="unlock-password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy || password === ''}>
        {t('mailbox.unlock')}
      </button>
    </form>
  );
}
