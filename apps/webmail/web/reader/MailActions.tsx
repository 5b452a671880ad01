import type { Mailbox, MailDetail } from '../api/types';

interface Props {
  mail: MailDetail;
  mailboxes: Mailbox[];
  busy: boolean;
  onBack(): void;
  onFlag(flagged: boolean): void;
  onSeen(seen: boolean): void;
  onMove(mailboxId: number): void;
  onDelete(): void;
}

/** Back, flag, mark unread, move and delete: the toolbar above an open mail. */
export function MailActions({ mail, mailboxes, busy, onBack, onFlag, onSeen, onMove, onDelete }: Props) {
  const targets = mailboxes.filter((mailbox) => mailbox.id !== mail.mailboxId && !mailbox.locked);
  const inTrash = mailboxes.find((mailbox) => mailbox.id === mail.mailboxId)?.role === 'trash';
  return (
    <div className="mail-actions" role="toolbar" aria-label="Message actions">
      <button type="button" className="back" onClick={onBack} title="Back to the list (Escape)">
        ← <span className="label">Back</span>
      </button>
      <button type="button" aria-pressed={mail.flagged} disabled={busy} onClick={() => onFlag(!mail.flagged)} title="Flag (s)">
        {mail.flagged ? '⚑ Flagged' : '⚐ Flag'}
      </button>
      <button type="button" disabled={busy} onClick={() => onSeen(!mail.seen)}>
        {mail.seen ? 'Mark unread' : 'Mark read'}
      </button>
      <label className="move">
        <span className="visually-hidden">Move to</span>
        <select
          value=""
          disabled={busy || targets.length === 0}
          onChange={(event) => {
            if (event.target.value) onMove(Number(event.target.value));
          }}
        >
          <option value="">Move to…</option>
          {targets.map((mailbox) => (
            <option key={mailbox.id} value={mailbox.id}>
              {mailbox.name}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="danger" disabled={busy} onClick={onDelete} title="Delete (#)">
        {inTrash ? 'Delete forever' : 'Delete'}
      </button>
    </div>
  );
}
