import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { MailDetail } from '../api/types';
import { formatAddresses, formatFullDate } from '../shared/format';
import { listedFiles } from './attachment-files';

/**
 * The mail as a clean page over the app: its headers, its text and its files' names, printed
 * at once. The print style (print.css) leaves everything else out of the printout while it
 * is open. The text body, not the HTML: it prints as it reads, with nothing remote to load.
 */
export function PrintView({ mail, onClose }: { mail: MailDetail; onClose(): void }) {
  const { t } = useTranslation();
  const files = listedFiles(mail.attachments);

  useEffect(() => {
    document.body.classList.add('printing');
    window.print();
    return () => document.body.classList.remove('printing');
  }, []);

  return createPortal(
    <article className="print-view" aria-labelledby="print-subject">
      <div className="print-view-actions">
        <button type="button" className="primary" onClick={() => window.print()}>
          {t('print.print')}
        </button>
        <button type="button" onClick={onClose}>
          {t('print.close')}
        </button>
      </div>
      <h1 id="print-subject">{mail.subject || t('common.noSubject')}</h1>
      <dl>
        <dt>{t('reader.from')}</dt>
        <dd>{formatAddresses([mail.from])}</dd>
        <dt>{t('reader.to')}</dt>
        <dd>{formatAddresses(mail.to) || '—'}</dd>
        {mail.cc.length > 0 && (
          <>
            <dt>{t('reader.cc')}</dt>
            <dd>{formatAddresses(mail.cc)}</dd>
          </>
        )}
        <dt>{t('reader.date')}</dt>
        <dd>
          <time dateTime={mail.receivedAt}>{formatFullDate(mail.receivedAt)}</time>
        </dd>
      </dl>
      <pre className="print-body">{mail.text}</pre>
      {files.length > 0 && (
        <section aria-label={t('attachments.label')}>
          <h2>{t('attachments.count', { count: files.length })}</h2>
          <ul>
            {files.map((attachment) => (
              <li key={attachment.partId}>{attachment.filename}</li>
            ))}
          </ul>
        </section>
      )}
    </article>,
    document.body,
  );
}
