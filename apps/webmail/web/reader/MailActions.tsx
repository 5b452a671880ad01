import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerMode, Mailbox, MailDetail } from '../api/types';
import { mailboxName } from '../mailboxes/mailbox-name';
import { moveTargets } from '../mailboxes/move-targets';
import { IconButton } from '../shared/IconButton';
import { MenuButton, type MenuEntry } from '../shared/MenuButton';
import { moveFocusAlongToolbar } from '../shared/toolbar-keys';
import { PrintView } from './PrintView';
import { useDownloadAll } from './useDownloadAll';

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

/**
 * The toolbar above an open mail, one row of icons: back (on narrow screens), reply, reply all and forward
 * (or edit, for a draft), flag, a menu of the folders to move to, delete, and the rarer actions in "More
 * actions" (mark unread, spam, the sender's lists, print, download all).
 */
export function MailActions({ mail, mailboxes, busy, onBack, onAnswer, onEditDraft, onFlag, onSeen, onMove, onReportSpam, onJudgeSender, onDelete }: Props) {
  const { t } = useTranslation();
  const [printing, setPrinting] = useState(false);
  const download = useDownloadAll(mail);
  const role = mailboxes.find((mailbox) => mailbox.id === mail.mailboxId)?.role;
  const targets = moveTargets(mailboxes, mail.mailboxId);
  const fromSomeone = mail.from.address !== '' && role !== 'sent' && role !== 'drafts';

  const more: MenuEntry[] = [
    { key: 'seen', label: mail.seen ? t('reader.markUnread') : t('reader.markRead'), disabled: busy, onSelect: () => onSeen(!mail.seen) },
  ];
  if (role === 'spam') more.push({ key: 'not-spam', label: t('reader.notSpam'), disabled: busy, onSelect: () => onReportSpam(false) });
  else if (role !== 'sent' && role !== 'drafts') more.push({ key: 'spam', label: t('reader.reportSpam'), disabled: busy, onSelect: () => onReportSpam(true) });
  if (fromSomeone) {
    more.push(
      { key: 'block', label: t('reader.blockSender'), disabled: busy, startsGroup: true, onSelect: () => onJudgeSender('blocked') },
      { key: 'allow', label: t('reader.neverSpam'), disabled: busy, onSelect: () => onJudgeSender('allowed') },
    );
  }
  more.push({ key: 'print', label: t('print.print'), startsGroup: true, onSelect: () => setPrinting(true) });
  if (download.available) {
    more.push({
      key: 'download',
      label: download.busy ? t('attachments.downloading') : t('attachments.downloadAll'),
      disabled: download.busy,
      onSelect: download.start,
    });
  }

  return (
    <>
      <div className="mail-actions" role="toolbar" aria-label={t('reader.actions')} onKeyDown={moveFocusAlongToolbar}>
        <IconButton icon="back" label={t('reader.back')} className="back" aria-keyshortcuts="Escape" onClick={onBack} />
        {onEditDraft ? (
          <IconButton icon="drafts" label={t('reader.editDraft')} onClick={onEditDraft} />
        ) : (
          <>
            <IconButton icon="reply" label={t('reader.reply')} aria-keyshortcuts="R" onClick={() => onAnswer('reply')} />
            <IconButton icon="replyAll" label={t('reader.replyAll')} aria-keyshortcuts="A" onClick={() => onAnswer('replyAll')} />
            <IconButton icon="forward" label={t('reader.forward')} aria-keyshortcuts="F" onClick={() => onAnswer('forward')} />
          </>
        )}
        <IconButton
          icon="flag"
          label={mail.flagged ? t('reader.unflag') : t('reader.flag')}
          className={mail.flagged ? 'flagged' : undefined}
          aria-keyshortcuts="S"
          disabled={busy}
          onClick={() => onFlag(!mail.flagged)}
        />
        <MenuButton
          icon="move"
          label={t('move.moveTo')}
          disabled={busy || targets.length === 0}
          entries={targets.map((mailbox) => ({ key: String(mailbox.id), label: mailboxName(mailbox), onSelect: () => onMove(mailbox.id) }))}
        />
        <IconButton
          icon="trash"
          label={role === 'trash' ? t('reader.deleteForever') : t('common.delete')}
          className="danger"
          aria-keyshortcuts="#"
          disabled={busy}
          onClick={onDelete}
        />
        <MenuButton icon="more" label={t('reader.more')} entries={more} />
      </div>
      {download.error && (
        <p className="error" role="alert">
          {download.error}
        </p>
      )}
      {printing && <PrintView mail={mail} onClose={() => setPrinting(false)} />}
    </>
  );
}
