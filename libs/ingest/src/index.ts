export { InboundIntake, SPOOLED_MESSAGE_BYTES, type InboundMessage, type AcceptedInbound } from './inbound-intake';
export { createInboundIntake } from './create-inbound-intake';
export { IntakeSpool, spoolFolderOf, type SpoolPlace } from './intake-spool';
export { intakeSpoolFor } from './intake-spool-for';
export { RecipientDirectory, type ResolvedRecipients } from './recipient-directory';
export { createIngestPipeline, type IngestPipelineOptions } from './pipeline/ingest-pipeline-stages';
export { ingestJobHandlers, type IngestJobOptions } from './ingest-job-handlers';
export {
  InboundRejectedError,
  EmptyMessageError,
  NotAMessageError,
  MessageTooLargeError,
  UnknownRecipientsError,
  NoRecipientsError,
} from './inbound-errors';
export { createSmtpIntake, type SmtpIntakeOptions } from './smtp-intake';
export { InboundAcceptances, acceptanceBlobReferencesSql } from './inbound-acceptances';
export { ColleagueDelivery } from './colleague-delivery';
export { refusalReason } from './refusal-reason';
