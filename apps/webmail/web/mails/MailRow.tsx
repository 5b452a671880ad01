import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Highlight } from '../api/types';
import { displayName, formatListDate } from '../shared/format';
import { Icon } from '../shared/Icon';
import { ReceiptBadge } from './ReceiptBadge';
import type { ListItem } from './useMailList';

interface Props {
  mail: ListItem;
  selected: boolean;
  checked: boolean;
  /** The row the list's keyboard cursor is on: the list's one Tab stop. */
  cursor: boolean;
  /** Sent mail shows its recipients and who has read it. */
  sentView: boolean;
  /** `range`: every row from the last ticked one to this one (shift-click). */
  onCheck(mail: ListItem, range: boolean): void;
  onOpen(mail: ListItem): void;
  /** Focus came into the row (its cell or its box): the cursor moves there. */
  onFocus(mail: ListItem): void;
}

/**
 * One row of the list's grid: the box that ticks it, and the cell that opens it. Only the cursor's cell is in the Tab order.
 * Drawn again only when its own props change: the list's fifty rows are most of a render of the page.
 */
export const MailRow = memo(function MailRow({ mail, selected, checked, cursor, sentView, onCheck, onOpen, onFocus }: Props) {
  const { t } = useTranslation();
  const row = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const people = mail.thread ? mail.thread.participants.map(displayName).join(', ') : displayName(mail.from);
  const listed = mail.recipients.map(displayName).join(', ');
  const unlisted = mail.recipientCount - mail.recipients.length;
  const recipients = unlisted > 0 ? t('row.moreRecipients', { people: listed, more: unlisted }) : listed;
  const who = sentView ? t('row.to', { people: recipients || t('row.noRecipients') }) : people;
  const subject = mail.subject || t('common.noSubject');
  return (
    <div
      role="row"
      aria-selected={checked}
      className={`mail-row-item${mail.seen ? '' : ' unread'}${selected ? ' selected' : ''}${checked ? ' checked' : ''}`}
      onFocus={() => onFocus(mail)}
    >
      <div role="gridcell" className="row-check-cell">
        <input
          type="checkbox"
          className="row-check"
          tabIndex={-1}
          checked={checked}
          aria-label={t('row.select', { subject })}
          onClick={(event) => onCheck(mail, event.shiftKey)}
          onChange={() => undefined}
        />
      </div>
      <div
        ref={row}
        role="gridcell"
        tabIndex={cursor ? 0 : -1}
        className="mail-row"
        aria-current={selected ? 'true' : undefined}
        data-mail-id={mail.id}
        data-thread-id={mail.threadId}
        onClick={() => onOpen(mail)}
      >
        <span className="row-top">
          <span className="row-from">
            {!mail.seen && <span className="visually-hidden">{t('row.unread')}</span>}
            {who}
            {mail.thread && mail.thread.messageCount > 1 && (
              <span className="thread-count" title={t('row.messages', { count: mail.thread.messageCount })}>
                {' '}
                {mail.thread.messageCount}
                <span className="visually-hidden">{t('row.messagesSpoken', { count: mail.thread.messageCount })}</span>
              </span>
            )}
          </span>
          <time className="row-date" dateTime={mail.receivedAt}>
            {formatListDate(mail.receivedAt)}
          </time>
        </span>
        <span className="row-subject">
          {mail.flagged && (
            <span className="flag" title={t('row.flagged')}>
              ⚑<span className="visually-hidden">{t('row.flaggedSpoken')}</span>
            </span>
          )}
          {mail.answered && (
            <span className="answered" title={t('row.replied')}>
              ↩<span className="visually-hidden">{t('row.repliedSpoken')}</span>
            </span>
          )}
          {mail.forwarded && (
            <span className="forwarded" title={t('row.forwarded')}>
              ↪<span className="visually-hidden">{t('row.forwardedSpoken')}</span>
            </span>
          )}
          {mail.hasAttachments && (
            <span className="clip" title={t('row.hasAttachments')}>
              <Icon name="clip" />
              <span className="visually-hidden">{t('row.hasAttachmentsSpoken')}</span>
            </span>
          )}
          {subject}
        </span>
        <span className="row-snippet">{mail.highlight ? <Marked highlight={mail.highlight} /> : mail.snippet}</span>
        {sentView && mail.receiptConfirm && mail.receiptConfirm.length > 0 && <ReceiptBadge receipts={mail.receiptConfirm} />}
      </div>
    </div>
  );
});

/** A search hit's snippet with the words found marked; the text stays text. */
function Marked({ highlight }: { highlight: Highlight }) {
  const parts: Array<{ text: string; marked: boolean }> = [];
  let at = 0;
  for (const [start, end] of highlight.marks) {
    if (start < at) continue;
    parts.push({ text: highlight.text.slice(at, start), marked: false }, { text: highlight.text.slice(start, end), marked: true });
    at = end;
  }
  parts.push({ text: highlight.text.slice(at), marked: false });
  return <>{parts.map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : part.text))}</>;
}
