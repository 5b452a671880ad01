import { decodeCharset } from './charset';
import type { BodyPartLayout } from './layout';
import { decodeTransfer } from './transfer-encoding';

export interface RenderedBody {
  text: string;
  /** Unsanitized: pass it through sanitizeMailHtml before it leaves the server. */
  html?: string;
}

/** Decodes the body parts a layout chose, given their raw bytes in the same order. */
export function renderBodies(parts: BodyPartLayout[], encodedParts: Buffer[]): RenderedBody {
  const texts: string[] = [];
  const htmls: string[] = [];
  parts.forEach((part, index) => {
    const decoded = decodeCharset(decodeTransfer(encodedParts[index], part.encoding), part.charset);
    (part.contentType === 'text/html' ? htmls : texts).push(decoded);
  });
  const html = htmls.length > 0 ? htmls.join('\n') : undefined;
  return { text: texts.length > 0 ? texts.join('\n') : html ? htmlToText(html) : '', html };
}

/** A plain-text rendering of HTML for snippets and text-only clients. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(style|script|head)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|tr|h[1-6]|li)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/gi, "'")
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

/** The first words of a message, as a list shows them. */
export function makeSnippet(text: string, length = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : flat.slice(0, length - 1).trimEnd() + '…';
}
