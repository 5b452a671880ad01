import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSendOfMail } from '../api/endpoints';
import { ApiError, isAbort } from '../api/http';
import type { SendRecipient } from '../api/types';

const STATUS_WORDS = {
  queued: 'delivery.queued',
  sent: 'delivery.sent',
  delayed: 'delivery.delayed',
  bounced: 'delivery.bounced',
  suppressed: 'delivery.suppressed',
  failed: 'delivery.failed',
} as const satisfies Record<SendRecipient['status'], string>;

/**
 * Under a mail in Sent: what became of each recipient of its send (delivered, delayed,
 * bounced with the remote server's words, suppressed). A Sent mail that no send of this
 * user made (one moved there by hand) shows nothing.
 */
export function DeliveryStatus({ mailId }: { mailId: number }) {
  const { t } = useTranslation();
  const [recipients, setRecipients] = useState<SendRecipient[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setRecipients(null);
    setError(null);
    const controller = new AbortController();
    fetchSendOfMail(mailId, controller.signal).then(
      (send) => setRecipients(send.recipients),
      (failure: unknown) => {
        if (isAbort(failure) || (failure instanceof ApiError && failure.status === 404)) return;
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => controller.abort();
  }, [mailId]);

  if (error) return <p className="notice">{t('delivery.unavailable', { reason: error })}</p>;
  if (!recipients || recipients.length === 0) return null;
  return (
    <section className="receipts delivery-status" aria-label={t('delivery.title')}>
      <h3>{t('delivery.title')}</h3>
      <ul>
        {recipients.map((recipient) => (
          <li key={recipient.address} data-recipient-status={recipient.status}>
            <span className="receipt-email">{recipient.address}</span> <span className="receipt-state">{t(STATUS_WORDS[recipient.status])}</span>
            {recipient.diagnostic && recipient.status !== 'suppressed' && <span className="receipt-state"> ({recipient.diagnostic})</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
