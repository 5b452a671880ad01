import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAttachmentsZip } from '../api/endpoints';
import { messageOf } from '../api/http';
import type { MailDetail } from '../api/types';
import { listedFiles } from './attachment-files';
import { saveFile } from './save-file';

/** All of the mail's files as one zip the server streams; nothing for a mail without files. */
export function DownloadAllButton({ mail }: { mail: MailDetail }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (listedFiles(mail.attachments).length === 0) return null;

  async function downloadAll() {
    setBusy(true);
    setError(null);
    try {
      const zip = await fetchAttachmentsZip(mail.id);
      saveFile(zip.blob, zip.filename);
    } catch (failure) {
      setError(t('attachments.allFailed', { reason: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" disabled={busy} onClick={() => void downloadAll()} title={t('attachments.downloadAllTitle')}>
        {busy ? t('attachments.downloading') : t('attachments.downloadAll')}
      </button>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
