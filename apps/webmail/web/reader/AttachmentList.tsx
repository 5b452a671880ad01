import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAttachment } from '../api/endpoints';
import { messageOf } from '../api/http';
import type { MailDetail } from '../api/types';
import { formatSize } from '../shared/format';
import { Icon } from '../shared/Icon';
import { listedFiles } from './attachment-files';
import { saveFile } from './save-file';
import { AttachmentPreview, previewable } from './AttachmentPreview';

type Attachment = MailDetail['attachments'][number];

/** The mail's files with their sizes, images with a thumbnail; each downloads with the session's token. */
export function AttachmentList({ attachments }: { attachments: Attachment[] }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [error, setError] = useState<string | null>(null);
  const files = listedFiles(attachments);
  if (files.length === 0) return null;

  async function download(attachment: Attachment) {
    setBusy((state) => ({ ...state, [attachment.partId]: true }));
    setError(null);
    try {
      saveFile(await fetchAttachment(attachment.url), attachment.filename);
    } catch (failure) {
      setError(t('attachments.failed', { name: attachment.filename, reason: messageOf(failure) }));
    } finally {
      setBusy((state) => ({ ...state, [attachment.partId]: false }));
    }
  }

  return (
    <section className="attachments" aria-label={t('attachments.label')}>
      <h3>{t('attachments.count', { count: files.length })}</h3>
      <ul>
        {files.map((attachment) => (
          <li key={attachment.partId}>
            <button
              type="button"
              className="attachment"
              onClick={() => void download(attachment)}
              disabled={busy[attachment.partId]}
              aria-label={t('attachments.download', { name: attachment.filename, size: formatSize(attachment.size) })}
            >
              {previewable(attachment) ? <AttachmentPreview attachment={attachment} /> : <Icon name="file" className="attachment-icon" />}
              <span className="attachment-name">{attachment.filename}</span>
              <span className="attachment-size">{busy[attachment.partId] ? t('attachments.downloading') : formatSize(attachment.size)}</span>
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
