import { fetchAttachment } from '../api/endpoints';
import type { MailDetail } from '../api/types';

/** Larger inline images stay out: the frame shows them as missing rather than hold megabytes of base64. */
const MAX_INLINE_BYTES = 5 * 1024 * 1024;

const blobToDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the image'));
    reader.readAsDataURL(blob);
  });

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The mail's own images (`cid:` parts, which the read API points at their attachment
 * route) need the session's token, which the frame cannot send: they are fetched here and
 * put into the HTML as data: URLs.
 */
export async function embedInlineImages(mail: MailDetail, signal: AbortSignal): Promise<string> {
  let html = mail.html ?? '';
  const used = mail.attachments.filter((attachment) => html.includes(attachment.url) && attachment.size <= MAX_INLINE_BYTES);
  const embedded = await Promise.all(
    used.map(async (attachment) => {
      try {
        return { url: attachment.url, data: await blobToDataUrl(await fetchAttachment(attachment.url, signal)) };
      } catch (error) {
        if ((error as Error).name === 'AbortError' || (error as { status?: number }).status === 401) throw error;
        return { url: attachment.url, data: '' };
      }
    }),
  );
  for (const { url, data } of embedded) {
    html = html.replace(new RegExp(`(["'(])${escapeRegExp(url)}(?=["')])`, 'g'), (_match, quote: string) => `${quote}${data}`);
  }
  return html;
}

/** Does the HTML load anything from another server (images, CSS backgrounds, fonts)? */
export function hasRemoteContent(html: string): boolean {
  return /\b(?:src|background|srcset|poster)\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html) || /url\(\s*["']?\s*(?:https?:)?\/\//i.test(html);
}
