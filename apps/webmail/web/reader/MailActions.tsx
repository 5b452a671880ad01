import type { AnswerMode, Mailbox, MailDetail } from '../api/types';
import { MoveToSelect } from '../mails/MoveToSelect';

interface Props {
  mail: MailDetail;
  mailboxes: Mailbox[];
  busy: boolean;
  onBack(): void;
  onAnswer(mode: AnswerMode): void;
  /** Set for a mail in Drafts: opens it in the compose window. */
  onEditDraft?: () => void;
  onFlag(flagged: boolean): void;
  onSeen(seen: boolean): void;
  onMove(mailboxId: number): void;
  /** Report spam (true) or not spam (false). */
  onReportSpam(spam: boolean): void;
  /** Block the sender (their mail goes to Spam) or never put their mail in Spam. */
  onJudgeSender(list: 'blocked' | 'allowed'): void;
  onDelete(): void;
}

/** Back, reply, reply all, forward (or edit, for a draft), flag, mark unread, move and delete: the toolbar above an open mail. */
export function MailActions({ mail, mailboxes, busy, onBack, onAnswer, onEditDraft, onFlag, onSeen, onMove, onReportSpam, onJudgeSender, onDelete }: Props) {
  const role = mailboxes.find((mailbox) => mailbox.id === mail.mailboxId)?.role;
  const inTrash = role === 'trash';
  const fromSomeone = mail.from.address !== '' && role !== 'sent' && role !== 'drafts';
  return (
    <div className="mail-actions" role="toolbar" aria-label="Message actions">
      <button type="button" className="back" onClick={onBack} title="Back to the list (Escape)">
        ← <span className="label">Back</span>
      </button>
      {onEditDraft ? (
        <button type="button" className="primary" onClick={onEditDraft}>
          Edit draft
        </button>
      ) : (
        <>
          <button type="button" onClick={() => onAnswer('reply')} title="Reply (r)">
            Reply
          </button>
          <button type="button" onClick={() => onAnswer('replyAll')} title="Reply all (a)">
            Reply all
          </button>
          <button type="button" onClick={() => onAnswer('forward')} title="Forward (f)">
            Forward
          </button>
        </>
      )}
      <button type="button" aria-pressed={mail.flagged} disabled={busy} onClick={() => onFlag(!mail.flagged)} title="Flag (s)">
        {mail.flagged ? '⚑ Flagged' : '⚐ Flag'}
      </button>
      <button type="button" disabled={busy} onClick={() => onSeen(!mail.seen)}>
        {mail.seen ? 'Mark unread' : 'Mark read'}
      </button>
      <MoveToSelect label="Move to" mailboxes={mailboxes} currentMailboxId={mail.mailboxId} disabled={busy} onMove={onMove} />
      {role === 'spam' ? (
        <button type="button" disabled={busy} onClick={() => onReportSpam(false)} title="Move to the inbox and teach the spam filter">
          Not spam
        </button>
      ) : (
        role !== 'sent' &&
        role !== 'drafts' && (
          <button type="button" disabled={busy} onClick={() => onReportSpam(true)} title="Move to Spam and teach the spam filter">
            Report spam
          </button>
        )
      )}
      {fromSomeone && (
        <>
          <button type="button" disabled={busy} onClick={() => onJudgeSender('blocked')} title={`Put mail from ${mail.from.address} in Spam from now on`}>
            Block sender
          </button>
          <button type="button" disabled={busy} onClick={() => onJudgeSender('allowed')} title={`Never put mail from ${mail.from.address} in Spam`}>
            Never spam
          </button>
        </>
      )}
      <button type="button" className="danger" disabled={busy} onClick={onDelete} title="Delete (#)">
        {inTrash ? 'Delete forever' : 'Delete'}
      </button>
    </div>
  );
}
