import { useEffect, useState } from 'react';
import { fetchAttachment } from '../api/endpoints';
import type { MailDetail } from '../api/types';

type Attachment = MailDetail['attachments'][number];

/** Raster types a browser draws without running anything; SVG, which can carry script, is never previewed. */
const PREVIEWED_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** A larger image keeps its icon: a thumbnail is not worth megabytes of a phone's data. */
const MAX_PREVIEW_BYTES = 5 * 1024 * 1024;

export const previewable = (attachment: Attachment) => PREVIEWED_TYPES.has(attachment.contentType.toLowerCase()) && attachment.size <= MAX_PREVIEW_BYTES;

/**
 * A thumbnail of an image attachment, fetched from its own URL with the session's token (an
 * <img src> could not send it) and shown from a blob: URL kept only while it is on screen.
 * A failed fetch leaves nothing: the attachment's button still downloads it.
 */
export function AttachmentPreview({ attachment }: { attachment: Attachment }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    const aborter = new AbortController();
    let url: string | null = null;
    fetchAttachment(attachment.url, aborter.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setSource(url);
      },
      () => setSource(null),
    );
    return () => {
      aborter.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [attachment.url]);
  return source ? <img className="attachment-preview" src={source} alt="" /> : null;
}
