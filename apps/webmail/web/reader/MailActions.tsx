import { useTranslation } from 'react-i18next';
import type { AnswerMode, Mailbox, MailDetail } from '../api/types';
import { MoveToSelect } from '../mails/MoveToSelect';
import { DownloadAllButton } from './DownloadAllButton';
import { PrintButton } from './PrintButton';

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

/** Back, reply, reply all, forward (or edit, for a draft), flag, mark unread, move, print, download all and delete: the toolbar above an open mail. */
export function MailActions({ mail, mailboxes, busy, onBack, onAnswer, onEditDraft, onFlag, onSeen, onMove, onReportSpam, onJudgeSender, onDelete }: Props) {
  const { t } = useTranslation();
  const role = mailboxes.find((mailbox) => mailbox.id === mail.mailboxId)?.role;
  const inTrash = role === 'trash';
  const fromSomeone = mail.from.address !== '' && role !== 'sent' && role !== 'drafts';
  return (
    <div className="mail-actions" role="toolbar" aria-label={t('reader.actions')}>
      <button type="button" className="back" onClick={onBack} title={t('reader.backTitle')}>
        ← <span className="label">{t('reader.back')}</span>
      </button>
      {onEditDraft ? (
        <button type="button" className="primary" onClick={onEditDraft}>
          {t('reader.editDraft')}
        </button>
      ) : (
        <>
          <button type="button" onClick={() => onAnswer('reply')} title={t('reader.replyTitle')}>
            {t('reader.reply')}
          </button>
          <button type="button" onClick={() => onAnswer('replyAll')} title={t('reader.replyAllTitle')}>
            {t('reader.replyAll')}
          </button>
          <button type="button" onClick={() => onAnswer('forward')} title={t('reader.forwardTitle')}>
            {t('reader.forward')}
          </button>
        </>
      )}
      <button type="button" aria-pressed={mail.flagged} disabled={busy} onClick={() => onFlag(!mail.flagged)} title={t('reader.flagTitle')}>
        {mail.flagged ? t('reader.flagged') : t('reader.flag')}
      </button>
      <button type="button" disabled={busy} onClick={() => onSeen(!mail.seen)}>
        {mail.seen ? t('reader.markUnread') : t('reader.markRead')}
      </button>
      <MoveToSelect label={t('move.moveTo')} mailboxes={mailboxes} currentMailboxId={mail.mailboxId} disabled={busy} onMove={onMove} />
      {role === 'spam' ? (
        <button type="button" disabled={busy} onClick={() => onReportSpam(false)} title={t('reader.notSpamTitle')}>
          {t('reader.notSpam')}
        </button>
      ) : (
        role !== 'sent' &&
        role !== 'drafts' && (
          <button type="button" disabled={busy} onClick={() => onReportSpam(true)} title={t('reader.reportSpamTitle')}>
            {t('reader.reportSpam')}
          </button>
        )
      )}
      {fromSomeone && (
        <>
          <button type="button" disabled={busy} onClick={() => onJudgeSender('blocked')} title={t('reader.blockSenderTitle', { address: mail.from.address })}>
            {t('reader.blockSender')}
          </button>
          <button type="button" disabled={busy} onClick={() => onJudgeSender('allowed')} title={t('reader.neverSpamTitle', { address: mail.from.address })}>
            {t('reader.neverSpam')}
          </button>
        </>
      )}
      <PrintButton mail={mail} />
      <DownloadAllButton mail={mail} />
      <button type="button" className="danger" disabled={busy} onClick={onDelete} title={t('reader.deleteTitle')}>
        {inTrash ? t('reader.deleteForever') : t('common.delete')}
      </button>
    </div>
  );
}
