import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAttachmentsZip } from '../api/endpoints';
import { messageOf } from '../api/http';
import type { MailDetail } from '../api/types';
import { listedFiles } from './attachment-files';
import { saveFile } from './save-file';

export interface DownloadAll {
  /** False for a mail without files: there is nothing to download. */
  available: boolean;
  busy: boolean;
  error: string | null;
  start(): void;
}

/** All of the mail's files as one zip the server streams, saved under the name the server gives it. */
export function useDownloadAll(mail: MailDetail): DownloadAll {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

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

  return { available: listedFiles(mail.attachments).length > 0, busy, error, start: () => void downloadAll() };
}
