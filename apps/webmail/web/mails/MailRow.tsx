import { useEffect, useRef, type MouseEvent } from 'react';
import type { Highlight } from '../api/types';
import { displayName, formatListDate } from '../shared/format';
import { Icon } from '../shared/Icon';
import { ReceiptBadge } from './ReceiptBadge';
import type { ListItem } from './useMailList';

interface Props {
  mail: ListItem;
  selected: boolean;
  checked: boolean;
  /** Sent mail shows its recipients and who has read it. */
  sentView: boolean;
  onCheck(mail: ListItem, event: MouseEvent<HTMLInputElement>): void;
  onOpen(mail: ListItem): void;
}

export function MailRow({ mail, selected, checked, sentView, onCheck, onOpen }: Props) {
  const row = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const people = mail.thread ? mail.thread.participants.map(displayName).join(', ') : displayName(mail.from);
  const who = sentView ? `To: ${[...mail.to, ...mail.cc].map(displayName).join(', ') || '(no recipients)'}` : people;
  const subject = mail.subject || '(no subject)';
  return (
    <li className={`mail-row-item${mail.seen ? '' : ' unread'}${selected ? ' selected' : ''}${checked ? ' checked' : ''}`}>
      <input
        type="checkbox"
        className="row-check"
        checked={checked}
        aria-label={`Select ${subject}`}
        onClick={(event) => onCheck(mail, event)}
        onChange={() => undefined}
      />
      <button
        ref={row}
        type="button"
        className="mail-row"
        aria-current={selected ? 'true' : undefined}
        data-mail-id={mail.id}
        data-thread-id={mail.threadId}
        onClick={() => onOpen(mail)}
      >
        <span className="row-top">
          <span className="row-from">
            {!mail.seen && <span className="visually-hidden">Unread, </span>}
            {who}
            {mail.thread && mail.thread.messageCount > 1 && (
              <span className="thread-count" title={`${mail.thread.messageCount} messages`}>
                {' '}
                {mail.thread.messageCount}
                <span className="visually-hidden"> messages</span>
              </span>
            )}
          </span>
          <time className="row-date" dateTime={mail.receivedAt}>
            {formatListDate(mail.receivedAt)}
          </time>
        </span>
        <span className="row-subject">
          {mail.flagged && (
            <span className="flag" title="Flagged">
              ⚑<span className="visually-hidden"> flagged, </span>
            </span>
          )}
          {mail.answered && (
            <span className="answered" title="Replied">
              ↩<span className="visually-hidden"> replied, </span>
            </span>
          )}
          {mail.forwarded && (
            <span className="forwarded" title="Forwarded">
              ↪<span className="visually-hidden"> forwarded, </span>
            </span>
          )}
          {mail.hasAttachments && (
            <span className="clip" title="Has attachments">
              <Icon name="clip" />
              <span className="visually-hidden"> with attachments, </span>
            </span>
          )}
          {subject}
        </span>
        <span className="row-snippet">{mail.highlight ? <Marked highlight={mail.highlight} /> : mail.snippet}</span>
        {sentView && mail.receiptConfirm && mail.receiptConfirm.length > 0 && <ReceiptBadge receipts={mail.receiptConfirm} />}
      </button>
    </li>
  );
}

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
