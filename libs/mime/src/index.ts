export type { MailLayout, AttachmentLayout, MimePart, EnvelopeFields } from './layout';
export { scanLayout, MAX_PARTS } from './scan-layout';
export { createTransferDecoder, isIdentityTransferEncoding, isKnownTransferEncoding } from './transfer-encoding';
export { locateBinarySection, type BinarySection, type EncodedContent } from './imap-binary-section';
export { parseHeaderBlock, summarizeHeaders, parseAddresses, MAX_REFERENCES, type MailHeader, type MailAddress, type HeaderSummary } from './header-block';
export { renderBodies, makeSnippet } from './render-body';
export { sanitizeMailHtml } from './sanitize';
export { messageHeadersOf, MAX_HEADER_BLOCK, type MessageHeaders } from './message-headers';
export { envelopeOf, envelopeOfFields, envelopeFieldsOfHeaderBlock } from './imap-envelope';
export { bodyStructureOf } from './imap-body-structure';
export { serializeImapValue, imapRun, type ImapValue, type ImapRun } from './imap-value';
export {
  parseImapSection,
  locateSection,
  partAt,
  partialSpan,
  ImapSectionError,
  type ImapSection,
  type ImapPartial,
  type SectionText,
  type SectionBytes,
  type ByteSpan,
} from './imap-section';
export { filterHeaderFields } from './header-fields-filter';
