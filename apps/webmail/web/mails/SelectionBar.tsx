import { useTranslation } from 'react-i18next';
import type { Mailbox } from '../api/types';
import { mailboxName } from '../mailboxes/mailbox-name';
import { moveTargets } from '../mailboxes/move-targets';
import { IconButton } from '../shared/IconButton';
import { MenuButton } from '../shared/MenuButton';
import { moveFocusAlongToolbar } from '../shared/toolbar-keys';

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

/**
 * What can be done to the ticked rows at once, as one row of icons: the everyday actions, a menu of the
 * folders to move to, and the rarer ones (mark unread, unflag) in a "More" menu.
 */
export function SelectionBar({ count, mailboxes, currentMailboxId, busy, onRead, onFlag, onMove, onReportSpam, inSpam, onDelete, onClear }: Props) {
  const { t } = useTranslation();
  const targets = moveTargets(mailboxes, currentMailboxId);
  return (
    <div className="selection-bar" role="toolbar" aria-label={t('selection.label')} onKeyDown={moveFocusAlongToolbar}>
      <span className="selection-count" role="status">
        {t('selection.count', { count })}
      </span>
      <IconButton icon="mailOpen" label={t('selection.markRead')} disabled={busy} onClick={() => onRead(true)} />
      <IconButton icon="flag" label={t('selection.flag')} disabled={busy} onClick={() => onFlag(true)} />
      <MenuButton
        icon="folder"
        label={t('selection.moveSelectedTo')}
        disabled={busy || targets.length === 0}
        entries={targets.map((mailbox) => ({ key: String(mailbox.id), label: mailboxName(mailbox), onSelect: () => onMove(mailbox.id) }))}
      />
      <IconButton icon="spam" label={inSpam ? t('selection.notSpam') : t('selection.reportSpam')} disabled={busy} onClick={() => onReportSpam(!inSpam)} />
      <IconButton icon="trash" label={t('common.delete')} className="danger" disabled={busy} onClick={onDelete} />
      <MenuButton
        icon="more"
        label={t('selection.more')}
        disabled={busy}
        entries={[
          { key: 'unread', label: t('selection.markUnread'), onSelect: () => onRead(false) },
          { key: 'unflag', label: t('selection.unflag'), onSelect: () => onFlag(false) },
        ]}
      />
      <IconButton icon="close" label={t('selection.clear')} className="selection-clear" onClick={onClear} />
    </div>
  );
}
