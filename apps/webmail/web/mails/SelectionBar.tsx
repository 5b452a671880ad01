import { useTranslation } from 'react-i18next';
import type { Mailbox } from '../api/types';
import { MoveToSelect } from './MoveToSelect';

interface Props {
  count: number;
  mailboxes: Mailbox[];
  currentMailboxId: number | null;
  busy: boolean;
  onRead(seen: boolean): void;
  onFlag(flagged: boolean): void;
  onMove(mailboxId: number): void;
  /** Report spam (true) or not spam (false): "Not spam" in the Spam folder, "Report spam" elsewhere. */
  onReportSpam(spam: boolean): void;
  inSpam: boolean;
  onDelete(): void;
  onClear(): void;
}

/** What can be done to the ticked rows at once. */
export function SelectionBar({ count, mailboxes, currentMailboxId, busy, onRead, onFlag, onMove, onReportSpam, inSpam, onDelete, onClear }: Props) {
  const { t } = useTranslation();
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('selection.label')}>
      <span className="selection-count" role="status">
        {t('selection.count', { count })}
      </span>
      <button type="button" disabled={busy} onClick={() => onRead(true)}>
        {t('selection.markRead')}
      </button>
      <button type="button" disabled={busy} onClick={() => onRead(false)}>
        {t('selection.markUnread')}
      </button>
      <button type="button" disabled={busy} onClick={() => onFlag(true)}>
        {t('selection.flag')}
      </button>
      <button type="button" disabled={busy} onClick={() => onFlag(false)}>
        {t('selection.unflag')}
      </button>
      <MoveToSelect label={t('selection.moveSelectedTo')} mailboxes={mailboxes} currentMailboxId={currentMailboxId} disabled={busy} onMove={onMove} />
      <button type="button" disabled={busy} onClick={() => onReportSpam(!inSpam)}>
        {inSpam ? t('selection.notSpam') : t('selection.reportSpam')}
      </button>
      <button type="button" className="danger" disabled={busy} onClick={onDelete}>
        {t('common.delete')}
      </button>
      <button type="button" className="link" onClick={onClear}>
        {t('selection.clear')}
      </button>
    </div>
  );
}
