import { useEffect, useRef } from 'react';
import type { MailSummary } from '../api/types';
import { displayName, formatListDate } from '../shared/format';
import { Icon } from '../shared/Icon';
import { ReceiptBadge } from './ReceiptBadge';

interface Props {
  mail: MailSummary;
  selected: boolean;
  /** Sent mail shows its recipients and who has read it. */
  sentView: boolean;
  onOpen(mail: MailSummary): void;
}

export function MailRow({ mail, selected, sentView, onOpen }: Props) {
  const row = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const who = sentView ? `To: ${[...mail.to, ...mail.cc].map(displayName).join(', ') || '(no recipients)'}` : displayName(mail.from);
  return (
    <li className={`mail-row-item${mail.seen ? '' : ' unread'}${selected ? ' selected' : ''}`}>
      <button
        ref={row}
        type="button"
        className="mail-row"
        aria-current={selected ? 'true' : undefined}
        data-mail-id={mail.id}
        onClick={() => onOpen(mail)}
      >
        <span className="row-top">
          <span className="row-from">
            {!mail.seen && <span className="visually-hidden">Unread, </span>}
            {who}
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
          {mail.hasAttachments && (
            <span className="clip" title="Has attachments">
              <Icon name="clip" />
              <span className="visually-hidden"> with attachments, </span>
            </span>
          )}
          {mail.subject || '(no subject)'}
        </span>
        <span className="row-snippet">{mail.snippet}</span>
        {sentView && mail.receiptConfirm && mail.receiptConfirm.length > 0 && <ReceiptBadge receipts={mail.receiptConfirm} />}
      </button>
    </li>
  );
}
