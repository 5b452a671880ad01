import { decodeCharset } from './charset';
import { htmlToText } from './html-to-text';
import type { BodyPartLayout } from './layout';
import { withoutQuotedText } from './quoted-text';
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

/**
 * The first words of a message, as a list and a conversation's folded messages show them: its own words,
 * without the quote of the message it answers (the whole text when it is all quote, as a bare forward is).
 */
export function makeSnippet(text: string, length = 200): string {
  const own = withoutQuotedText(text) || text;
  // Only the start is shown: what follows it is never scanned, however long the text.
  const flat = own
    .slice(0, length * 8)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length <= length ? flat : flat.slice(0, length - 1).trimEnd() + '…';
}
