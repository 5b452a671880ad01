import sanitizeHtml from 'sanitize-html';
import { scanHtml } from './html-scan';
import { htmlToText } from './html-to-text';

/**
 * sanitize-html's parser keeps a stack of open elements and searches or shifts it on every
 * tag, so its work grows with nesting depth times tags: 100,000 nested elements took
 * seconds. Real mail nests a few dozen deep; HTML nested deeper is shown as its text.
 */
export const MAX_HTML_DEPTH = 256;

/** Elements that never hold others, or that the parser closes when the next one opens: they add no depth. */
const FLAT = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'p',
  'li',
  'td',
  'th',
  'tr',
  'dd',
  'dt',
  'option',
  'optgroup',
  'rp',
  'rt',
  'tbody',
  'thead',
  'tfoot',
]);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'font',
    'center',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'td',
    'th',
    'col',
    'colgroup',
    'u',
    's',
    'hr',
  ],
  allowedAttributes: {
    '*': ['style', 'align', 'valign', 'width', 'height', 'bgcolor', 'color', 'dir', 'lang', 'title'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'border'],
    font: ['face', 'size', 'color'],
    table: ['border', 'cellpadding', 'cellspacing', 'width', 'bgcolor', 'align'],
    td: ['colspan', 'rowspan', 'width', 'bgcolor', 'align', 'valign'],
    th: ['colspan', 'rowspan', 'width', 'bgcolor', 'align', 'valign'],
  },
  // data: only for images: a data: link opens a page of the sender's making.
  allowedSchemes: ['http', 'https', 'mailto', 'tel', 'cid'],
  // Styles are kept as written (every property is allowed), so parsing each one with
  // postcss would cost CPU on every read for nothing.
  parseStyleAttributes: false,
  allowedSchemesByTag: { img: ['http', 'https', 'cid', 'data'] },
  // sanitize-html's own list (their text is never shown), and the document's <title>, which
  // the reader shows as the subject: left in, it was a stray line above the mail.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'xmp', 'title'],
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
    // The document's language and the body's look (a newsletter's background colour and padding)
    // live on elements a fragment shown inside the webmail cannot have: wrappers carry them.
    html: (_tagName, attribs) => ({ tagName: 'div', attribs: languageOf(attribs) }),
    body: (_tagName, attribs) => ({ tagName: 'div', attribs }),
  },
};

function languageOf(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  return Object.fromEntries(Object.entries(attribs).filter(([name]) => name === 'lang' || name === 'dir'));
}

/**
 * Makes a message's HTML safe to show inside the webmail: no scripts, event handlers,
 * forms or frames. `cid:` images are pointed at the mail's inline attachments when a
 * resolver is given. Remote images stay; the webmail shows them only when asked.
 */
export function sanitizeMailHtml(html: string, resolveContentId?: (contentId: string) => string | undefined): string {
  if (nestsDeeperThan(html, MAX_HTML_DEPTH)) return `<div style="white-space:pre-wrap">${escapeHtml(htmlToText(html))}</div>`;
  if (!resolveContentId) return sanitizeHtml(html, OPTIONS);
  return sanitizeHtml(html, {
    ...OPTIONS,
    transformTags: {
      ...OPTIONS.transformTags,
      img: (tagName, attribs) => {
        const src = attribs.src ?? '';
        if (!src.toLowerCase().startsWith('cid:')) return { tagName, attribs };
        const resolved = resolveContentId(src.slice(4).replace(/^<|>$/g, ''));
        return { tagName, attribs: resolved ? { ...attribs, src: resolved } : { ...attribs, src: '' } };
      },
    },
  });
}

/** Whether elements open inside each other deeper than `limit`, counted in one linear pass. */
function nestsDeeperThan(html: string, limit: number): boolean {
  let depth = 0;
  let deepest = 0;
  scanHtml(html, {
    text: () => undefined,
    tag: (name, closing, selfClosing) => {
      if (FLAT.has(name) || selfClosing || name === '') return;
      if (!closing) deepest = Math.max(deepest, ++depth);
      else if (depth > 0) depth--;
    },
  });
  return deepest > limit;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
