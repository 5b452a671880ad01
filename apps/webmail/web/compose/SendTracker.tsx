import type { SendRecipient } from '../api/types';
import type { TrackedSend } from './useSendTracking';

interface Props {
  sends: TrackedSend[];
  onUndo(item: TrackedSend): void;
  onDismiss(id: number): void;
}

const LABELS = {
  queued: 'Queued',
  sending: 'Sending…',
  sent: 'Sent',
  failed: 'Failed',
  cancelled: 'Cancelled: back in Drafts',
} as const;

const RECIPIENT_LABELS = {
  delayed: 'delayed',
  bounced: 'bounced',
  suppressed: 'not sent: on the suppression list',
  failed: 'failed',
} as const;

/** The recipients something happened to (a bounce, a delay, the suppression list), each with what the remote server said. */
function RecipientTroubles({ recipients }: { recipients: SendRecipient[] }) {
  const troubled = recipients.filter((recipient) => recipient.status in RECIPIENT_LABELS);
  if (troubled.length === 0) return null;
  return (
    <ul className="send-recipients">
      {troubled.map((recipient) => (
        <li key={recipient.address} data-recipient-status={recipient.status}>
          {recipient.address}: {RECIPIENT_LABELS[recipient.status as keyof typeof RECIPIENT_LABELS]}
          {recipient.diagnostic && recipient.status !== 'suppressed' && ` (${recipient.diagnostic})`}
        </li>
      ))}
    </ul>
  );
}

/** The status of each send of this session, and of its recipients, announced as it changes. */
export function SendTracker({ sends, onUndo, onDismiss }: Props) {
  return (
    <section className="send-tracker" aria-label="Sending">
      <ul role="status" aria-live="polite">
        {sends.map((item) => (
          <li key={item.send.id} className={`send-item status-${item.send.status}`} data-send-id={item.send.id}>
            <span className="send-subject">“{item.subject}”</span>{' '}
            <span className="send-status" data-status={item.send.status}>
              {LABELS[item.send.status]}
              {item.send.status === 'queued' && item.send.scheduledAt && ` (goes out ${new Date(item.send.scheduledAt).toLocaleTimeString()})`}
              {item.send.status === 'failed' && item.send.lastError && `: ${item.send.lastError}`}
            </span>
            {item.send.status === 'queued' && (
              <button type="button" onClick={() => onUndo(item)}>
                Undo
              </button>
            )}
            {['sent', 'failed', 'cancelled'].includes(item.send.status) && (
              <button type="button" className="icon" aria-label="Dismiss" onClick={() => onDismiss(item.send.id)}>
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
