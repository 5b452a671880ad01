import { useTranslation } from 'react-i18next';
import type { Mailbox } from '../api/types';
import { mailboxName } from '../mailboxes/mailbox-name';

interface Props {
  /** Spoken name of the control, e.g. "Move to" or "Move selected to". */
  label: string;
  mailboxes: Mailbox[];
  /** Not offered as a destination. */
  currentMailboxId: number | null;
  disabled: boolean;
  onMove(mailboxId: number): void;
}

/** "Move to…": every unlocked mailbox but the one the mail is in. */
export function MoveToSelect({ label, mailboxes, currentMailboxId, disabled, onMove }: Props) {
  const { t } = useTranslation();
  const targets = mailboxes.filter((mailbox) => mailbox.id !== currentMailboxId && !mailbox.locked);
  return (
    <label className="move">
      <span className="visually-hidden">{label}</span>
      <select
        value=""
        disabled={disabled || targets.length === 0}
        onChange={(event) => {
          if (event.target.value) onMove(Number(event.target.value));
        }}
      >
        <option value="">{t('move.placeholder')}</option>
        {targets.map((mailbox) => (
          <option key={mailbox.id} value={mailbox.id}>
            {mailboxName(mailbox)}
          </option>
        ))}
      </select>
    </label>
  );
}
