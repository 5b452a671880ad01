export { InboundIntake, SPOOLED_MESSAGE_BYTES } from './inbound-intake';
export { createInboundIntake } from './create-inbound-intake';
export { spoolFolderOf } from './intake-spool';
export { intakeSpoolFor } from './intake-spool-for';
export { RecipientDirectory } from './recipient-directory';
export { createIngestPipeline } from './pipeline/ingest-pipeline-stages';
export { RspamdScanner } from './spam/rspamd-scanner';
export { RspamdLearner } from './spam/rspamd-learner';
export { ingestJobHandlers } from './ingest-job-handlers';
export {
  DmarcRejectedError,
  SpamRejectedError,
  EmptyMessageError,
  NotAMessageError,
  MessageTooLargeError,
  UnknownRecipientsError,
  NoRecipientsError,
  ForeignRecipientsError,
  QuotaExceededError,
} from './inbound-errors';
export { createSmtpIntake } from './smtp-intake';
export type { SmtpTls } from './smtp-tls';
export { InboundAcceptances, acceptanceBlobReferencesSql } from './inbound-acceptances';
export { ColleagueDelivery } from './colleague-delivery';
export { refusalReason } from './refusal-reason';
export { limitSize } from './size-limit';
export { rejoined } from './read-up-to';
export { headerEnd } from './message-head';
