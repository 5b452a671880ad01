export { storeMail, prepareMail, prepareStoredMail, messageIdOf, MAX_MESSAGE_ID_LENGTH, type MailToStore, type MailPlacement, type PreparedMail, type StoredMail } from './store-mail';
export type { MailPlacementSql } from './mail-row-columns';
export { mailRowsInput, type MailRowsInput, type MailInputRow } from './mail-row-input';
export { mailRowsInsertCtes, type MailRowsInsert } from './mail-rows-insert';
export { replaceMailMessage, discardMailsSql, type MailIdsSql } from './draft-mail-writes';
export { markAnsweredSql, returnSentCopyToDrafts, type AnsweredMailsSql } from './sent-mail-writes';
export { insertMailClones, type MailClones } from './mail-clones';
export { storableText, storableJson } from './storable-text';
export { MailboxQueries, type MailboxCounters } from './mailbox-queries';
export { MailboxChanges } from './mailbox-changes';
export { ChangeMailboxes } from './change-mailboxes';
export { MailListQuery, type MailListRequest } from './mail-list-query';
export type { MailListFilter } from './mail-filter-sql';
export { MailQueries, type MailExpansion } from './mail-queries';
export { ThreadQueries } from './thread-queries';
export { MailContentReader, type MailContent } from './mail-content';
export { MailDetailQuery, type AttachmentUrl } from './mail-detail';
export { RenderedContentCache, type RenderedContent } from './rendered-content-cache';
export { MailUpdates, type MailChanges, type MailState } from './mail-updates';
export { BulkMailChanges, type MailSelection, type BulkAction, type BulkOutcome } from './bulk-mail-changes';
export { ChangeMail } from './change-mail';
export { ChangeMailsInBulk } from './change-mails-in-bulk';
export { ReadReceipts, newCertKey, readReceiptKeys } from './read-receipts';
export { encodeCursor, decodeCursor, type ListCursor } from './list-cursor';
export { MailboxNotFoundError, MailboxLockedError, MailboxNameTakenError, SystemMailboxError, WrongPasswordError, MailNotFoundError, AttachmentNotFoundError, ThreadNotFoundError } from './mail-errors';
export { mapConcurrently } from './map-concurrently';
export { mapSummaryRow, SUMMARY_COLUMNS, type MailRecord, type SummaryRow } from './mail-views';
export {
  mailSummarySchema,
  mailDetailSchema,
  mailPageSchema,
  threadPageSchema,
  threadSchema,
  mailboxViewSchema,
  mailboxListSchema,
  type MailSummary,
  type MailDetail,
  type MailListPage,
  type ThreadSummary,
  type ThreadListPage,
  type MailboxView,
  type AttachmentView,
  type ReceiptView,
} from './mail-views';
export { parseSearchQuery, SearchQueryError, type SearchQuery, type SearchTerm } from './search/search-query';
export { searchDocumentSql } from './search/search-document';
export { searchableText } from './search/search-text';
export { ContactQueries, contactListSchema, type ContactSuggestion } from './contacts';
export { mailBlobReferencesSql } from './mail-blob-references';
