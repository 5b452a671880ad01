import { useTranslation } from 'react-i18next';
import type { SendRecipient } from '../api/types';
import { formatTime } from '../shared/format';
import type { TrackedSend } from './useSendTracking';

interface Props {
  sends: TrackedSend[];
  onUndo(item: TrackedSend): void;
  onDismiss(id: number): void;
}

const LABELS = {
  queued: 'sends.queued',
  sending: 'sends.sending',
  sent: 'sends.sent',
  failed: 'sends.failed',
  cancelled: 'sends.cancelled',
} as const;

const RECIPIENT_LABELS = {
  delayed: 'sends.delayed',
  bounced: 'sends.bounced',
  suppressed: 'sends.suppressed',
  failed: 'sends.recipientFailed',
} as const;

/** The recipients something happened to (a bounce, a delay, the suppression list), each with what the remote server said. */
function RecipientTroubles({ recipients }: { recipients: SendRecipient[] }) {
  const { t } = useTranslation();
  const troubled = recipients.filter((recipient) => recipient.status in RECIPIENT_LABELS);
  if (troubled.length === 0) return null;
  return (
    <ul className="send-recipients">
      {troubled.map((recipient) => (
        <li key={recipient.address} data-recipient-status={recipient.status}>
          {recipient.address}: {t(RECIPIENT_LABELS[recipient.status as keyof typeof RECIPIENT_LABELS])}
          {recipient.diagnostic && recipient.status !== 'suppressed' && ` (${recipient.diagnostic})`}
        </li>
      ))}
    </ul>
  );
}

/** The status of each send of this session, and of its recipients, announced as it changes. */
export function SendTracker({ sends, onUndo, onDismiss }: Props) {
  const { t } = useTranslation();
  return (
    <section className="send-tracker" aria-label={t('sends.tracker')}>
      <ul role="status" aria-live="polite">
        {sends.map((item) => (
          <li key={item.send.id} className={`send-item status-${item.send.status}`} data-send-id={item.send.id}>
            <span className="send-subject">“{item.subject}”</span>{' '}
            <span className="send-status" data-status={item.send.status}>
              {t(LABELS[item.send.status])}
              {item.send.status === 'queued' && item.send.scheduledAt && t('sends.goesOut', { time: formatTime(item.send.scheduledAt) })}
              {item.send.status === 'failed' && item.send.lastError && `: ${item.send.lastError}`}
            </span>
            {item.send.status === 'queued' && (
              <button type="button" onClick={() => onUndo(item)}>
                {t('common.undo')}
              </button>
            )}
            {['sent', 'failed', 'cancelled'].includes(item.send.status) && (
              <button type="button" className="icon" aria-label={t('common.dismiss')} onClick={() => onDismiss(item.send.id)}>
                ✕
              </button>
            )}
            {item.undoError && <span className="error"> {item.undoError}</span>}
            {item.send.recipients && <RecipientTroubles recipients={item.send.recipients} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
