export type { MailLayout, BodyPartLayout, AttachmentLayout, ScannedLayout } from './layout';
export { scanLayout, MAX_PARTS } from './scan-layout';
export { createTransferDecoder } from './transfer-encoding';
export { parseHeaderBlock, summarizeHeaders, parseAddresses, MAX_REFERENCES, type MailHeader, type MailAddress, type HeaderSummary } from './header-block';
export { renderBodies, makeSnippet, type RenderedBody } from './render-body';
export { htmlToText } from './html-to-text';
export { sanitizeMailHtml } from './sanitize';
