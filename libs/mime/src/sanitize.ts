import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img', 'font', 'center', 'span', 'div', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'col', 'colgroup', 'u', 's', 'hr',
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
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
  },
};

/**
 * Makes a message's HTML safe to show inside the webmail: no scripts, event handlers,
 * forms or frames. `cid:` images are pointed at the mail's inline attachments when a
 * resolver is given. Remote images stay; the webmail shows them only when asked.
 */
export function sanitizeMailHtml(html: string, resolveContentId?: (contentId: string) => string | undefined): string {
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
