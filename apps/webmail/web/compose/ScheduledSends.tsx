import { useTranslation } from 'react-i18next';
import type { ScheduledSend } from '../api/types';
import { formatDateTime } from '../shared/format';

interface Props {
  sends: ScheduledSend[];
  busy: boolean;
  error: string | null;
  onCancel(send: ScheduledSend): void;
}

/** The mails "Send later" holds back, each with when it goes and a cancel that returns it to Drafts. */
export function ScheduledSends({ sends, busy, error, onCancel }: Props) {
  const { t } = useTranslation();
  if (sends.length === 0 && !error) return null;
  return (
    <section className="scheduled-sends" aria-label={t('sends.scheduled')}>
      <h2>{t('sends.scheduled')}</h2>
      <ul>
        {sends.map((send) => (
          <li key={send.id} data-send-id={send.id}>
            <span className="scheduled-subject">{send.subject || t('common.noSubject')}</span>{' '}
            <time dateTime={send.scheduledAt ?? undefined}>{send.scheduledAt && formatDateTime(send.scheduledAt)}</time>{' '}
            <button
              type="button"
              className="link"
              disabled={busy}
              aria-label={t('sends.cancelNamed', { subject: send.subject || t('common.noSubject') })}
              onClick={() => onCancel(send)}
            >
              {t('common.cancel')}
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
