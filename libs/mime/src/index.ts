export type { MailLayout, AttachmentLayout } from './layout';
export { scanLayout, MAX_PARTS } from './scan-layout';
export { createTransferDecoder } from './transfer-encoding';
export { parseHeaderBlock, summarizeHeaders, parseAddresses, MAX_REFERENCES, type MailHeader, type MailAddress, type HeaderSummary } from './header-block';
export { renderBodies, makeSnippet } from './render-body';
export { sanitizeMailHtml } from './sanitize';
export { messageHeadersOf, MAX_HEADER_BLOCK, type MessageHeaders } from './message-headers';
