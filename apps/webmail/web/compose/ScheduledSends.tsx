import type { ScheduledSend } from '../api/types';

interface Props {
  sends: ScheduledSend[];
  busy: boolean;
  error: string | null;
  onCancel(send: ScheduledSend): void;
}

/** The mails "Send later" holds back, each with when it goes and a cancel that returns it to Drafts. */
export function ScheduledSends({ sends, busy, error, onCancel }: Props) {
  if (sends.length === 0 && !error) return null;
  return (
    <section className="scheduled-sends" aria-label="Scheduled">
      <h2>Scheduled</h2>
      <ul>
        {sends.map((send) => (
          <li key={send.id} data-send-id={send.id}>
            <span className="scheduled-subject">{send.subject || '(no subject)'}</span>{' '}
            <time dateTime={send.scheduledAt ?? undefined}>{send.scheduledAt && new Date(send.scheduledAt).toLocaleString()}</time>{' '}
            <button type="button" className="link" disabled={busy} aria-label={`Cancel “${send.subject || '(no subject)'}”`} onClick={() => onCancel(send)}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
