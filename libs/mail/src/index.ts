export { storeMail, prepareMail, prepareStoredMail, messageIdOf, type PreparedMail } from './store/store-mail';
export { insertMail } from './store/mail-insert';
export { mailRowsInput } from './store/mail-row-input';
export { mailRowsInsertCtes } from './store/mail-rows-insert';
export { replaceMailMessage, discardMailsSql } from './store/draft-mail-writes';
export { markAnsweredSql, returnSentCopyToDrafts } from './store/sent-mail-writes';
export { insertMailClones } from './store/mail-clones';
export { storableText, storableJson } from './store/storable-text';
export { MailboxQueries, sharedMailboxCounters, type MailboxCounters } from './mailboxes/mailbox-queries';
export { MailboxChanges } from './mailboxes/mailbox-changes';
export { ChangeMailboxes } from './mailboxes/change-mailboxes';
export { mailboxNameProblem, MAX_MAILBOX_NAME } from './mailboxes/mailbox-name-rule';
export { MailListQuery } from './list/mail-list-query';
export type { MailListFilter } from './list/mail-filter-sql';
export { MailQueries } from './read/mail-queries';
export { ThreadQueries } from './threads/thread-queries';
export { MailContentReader } from './read/mail-content';
export { MailSectionReader, type SectionedMail, type SectionStream, type DecodedSectionStream } from './read/mail-sections';
export { MailMimeTrees, type MailWithLayout } from './store/mail-mime-trees';
export { MailDetailQuery } from './read/mail-detail';
export { RenderedContentCache } from './read/rendered-content-cache';
export { MailUpdates, type MailState } from './change/mail-updates';
export { BulkMailChanges, type MailSelection } from './change/bulk-mail-changes';
export { ChangeMail } from './change/change-mail';
export { ReportSpam } from './change/report-spam';
export { SpamSweep } from './change/spam-sweep';
export { ChangeMailsInBulk } from './change/change-mails-in-bulk';
export { PerUserLimit } from './heavy-reads/per-user-limit';
export { BulkChanges, type BulkFilter } from './change/bulk-changes';
export { BulkChangeSlices } from './change/bulk-change-slices';
export { RunBulkChange } from './change/run-bulk-change';
export { StartBulkChange } from './change/start-bulk-change';
export { UndoBulkChange } from './change/undo-bulk-change';
export { bulkChangeSchema, type BulkChangeView } from './change/bulk-change-views';
export { ReadReceipts, newCertKey, readReceiptKeys } from './receipts/read-receipts';
export { decodeCursor } from './list/list-cursor';
export {
  MailboxNotFoundError,
  MailboxLockedError,
  MailboxNameTakenError,
  SystemMailboxError,
  WrongPasswordError,
  MailNotFoundError,
  AttachmentNotFoundError,
  NoAttachmentsError,
  ThreadNotFoundError,
  TooManyHeavyReadsError,
  MailboxDeletedError,
  BulkChangeNotFoundError,
  BulkChangeNotUndoableError,
} from './mail-errors';
export { spamVerdictSchema, type SpamVerdict } from './spam-verdict';
export { LISTED_RECIPIENTS, mapSummaryRow, SUMMARY_COLUMNS, type MailRecord, type SummaryRow } from './mail-views';
export {
  mailDetailSchema,
  mailPageSchema,
  threadPageSchema,
  threadSchema,
  mailboxViewSchema,
  mailboxListSchema,
  type MailSummary,
  type MailDetail,
  type MailListPage,
  type ThreadListPage,
  type MailboxView,
  type AttachmentView,
} from './mail-views';
export { parseSearchQuery, SearchQueryError } from './search/search-query';
export { searchDocumentSql } from './search/search-document';
export { searchableText } from './search/search-text';
export { ContactQueries, contactListSchema, type ContactSuggestion } from './contacts/contacts';
export { writtenToAmong, correspondentKey, type SenderOfRecipient } from './contacts/correspondents';
export { SenderRules, senderRulesAmong, senderAddressSchema, senderRuleListSchema, type SenderRule, type SenderRuleList } from './contacts/sender-rules';
export { SieveScripts, sieveScriptsOf, type StoredSieveScript } from './rules/sieve-scripts';
export { SaveSieveScript } from './rules/save-sieve-script';
export { sieveFolder } from './rules/sieve-folders';
export { mailBlobReferencesSql } from './store/mail-blob-references';
export { MailExportQueries, type ExportedMail } from './export/mail-export-queries';
export { ApplySieveScript, MAX_APPLIED_MAILS, appliedRulesSchema, type AppliedRules } from './rules/apply-sieve-script';
export { imapMailboxState, type ImapMailboxState } from './imap/imap-mailbox-state';
export { ImapMessages, type ImapMessage, type ImapMessageExtra, type ImapFlagChange, type UidRange } from './imap/imap-messages';
export type { ImapMessageFlags } from './imap/imap-message-flags';
export { ExpungeRecordSweep } from './imap/expunge-record-sweep';
export { ImapFlagChanges, type ImapFlagStore, type ImapFlagStoreOutcome, type ImapStoredFlags } from './imap/imap-flag-store';
export { ImapMailTransfers, ImapOverQuotaError, type ImapTransfer } from './imap/imap-mail-transfers';
export { ImapExpunge } from './imap/imap-expunge';
export { ImapAppend, type ImapAppended, type AppendedMessage } from './imap/imap-append';
export { imapSearch, type ImapSearchResult } from './imap/imap-search';
export type { ImapHeaderCondition, ImapSearchCriterion, ImapSearchField, ImapSearchFlag } from './imap/imap-search-sql';
export type { ImapSortField, ImapSortKey } from './imap/imap-sort-sql';
export { imapThreads, type ImapThreadAlgorithm, type ImapThreads } from './imap/imap-thread';
