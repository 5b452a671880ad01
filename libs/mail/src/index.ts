export { storeMail, prepareMail, prepareStoredMail, messageIdOf, MAX_MESSAGE_ID_LENGTH, type MailToStore, type MailPlacement, type PreparedMail, type StoredMail } from './store/store-mail';
export type { MailPlacementSql } from './store/mail-row-columns';
export { mailRowsInput, type MailRowsInput, type MailInputRow } from './store/mail-row-input';
export { mailRowsInsertCtes, type MailRowsInsert } from './store/mail-rows-insert';
export { replaceMailMessage, discardMailsSql, type MailIdsSql } from './store/draft-mail-writes';
export { markAnsweredSql, returnSentCopyToDrafts, type AnsweredMailsSql } from './store/sent-mail-writes';
export { insertMailClones, type MailClones } from './store/mail-clones';
export { storableText, storableJson } from './store/storable-text';
export { MailboxQueries, type MailboxCounters } from './mailboxes/mailbox-queries';
export { MailboxChanges } from './mailboxes/mailbox-changes';
export { ChangeMailboxes } from './mailboxes/change-mailboxes';
export { MailListQuery, type MailListRequest } from './list/mail-list-query';
export type { MailListFilter } from './list/mail-filter-sql';
export { MailQueries, type MailExpansion } from './read/mail-queries';
export { ThreadQueries } from './threads/thread-queries';
export { MailContentReader, type MailContent } from './read/mail-content';
export { MailDetailQuery, type AttachmentUrl } from './read/mail-detail';
export { RenderedContentCache, type RenderedContent } from './read/rendered-content-cache';
export { MailUpdates, type MailChanges, type MailState } from './change/mail-updates';
export { BulkMailChanges, type MailSelection, type BulkAction, type BulkOutcome } from './change/bulk-mail-changes';
export { ChangeMail } from './change/change-mail';
export { ChangeMailsInBulk } from './change/change-mails-in-bulk';
export { ReadReceipts, newCertKey, readReceiptKeys } from './receipts/read-receipts';
export { encodeCursor, decodeCursor, type ListCursor } from './list/list-cursor';
export { MailboxNotFoundError, MailboxLockedError, MailboxNameTakenError, SystemMailboxError, WrongPasswordError, MailNotFoundError, AttachmentNotFoundError, ThreadNotFoundError } from './mail-errors';
export { mapConcurrently } from './store/map-concurrently';
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
export { ContactQueries, contactListSchema, type ContactSuggestion } from './contacts/contacts';
export { mailBlobReferencesSql } from './store/mail-blob-references';
