export type { SendRequest, SendAttachment } from './submit/send-request';
export { ANSWER_MODES } from './submit/send-request';
export { answeredMailEvent } from './submit/answered-event';
export { SendRecords } from './submit/send-records';
export { sendGroupCommit } from './submit/send-group-commit';
export { UserSends } from './submit/user-sends';
export { SendDelivery } from './deliver/send-delivery';
export { SenderRateLimit } from './deliver/sender-rate-limit';
export {
  SendNotFoundError,
  NoSendOfMailError,
  SendAlreadyStartedError,
  IdempotencyKeyReusedError,
  NoRecipientsError,
  DraftNotFoundError,
  DraftVersionConflictError,
  SenderGoneError,
  NotSendersAddressError,
  QuotaExceededError,
} from './send-errors';
export { Drafts } from './drafts/drafts';
export { AppendedDrafts } from './drafts/appended-drafts';
export { draftViewSchema, type DraftView } from './drafts/draft-content';
export { SendSubmission } from './submit/send-submission';
export { SendMail } from './submit/send-mail';
export { SenderDirectory } from './sender-directory';
export {
  sendViewSchema,
  sendStatusSchema,
  sendRecipientSchema,
  submittedSendSchema,
  scheduledSendSchema,
  scheduledSendListSchema,
  type SendView,
  type SendStatusView,
  type ScheduledSendView,
} from './submit/send-view';
export { SendOutbox } from './submit/send-outbox';
export { SentCopies } from './sent-copies/sent-copies';
export { SentFolderAppends } from './sent-copies/sent-folder-appends';
export { messageIdIn, submittedSendKey } from './submit/submitted-send-key';
export { ListingProviderReceipts } from './deliver/provider-receipts';
export { sendBlobReferencesSql, draftBlobReferencesSql } from './attachment-blob-references';
export { BounceAddresses, looksLikeBounceAddress, type BounceTarget } from './deliver/bounce-addresses';
export { IncomingBounces, type NoticeToStore } from './bounces/incoming-bounces';
export { Suppressions, type SuppressionRow } from './bounces/suppressions';
export { BOUNCE_READ_BYTES } from './bounces/delivery-status-report';
export {
  VacationSettings,
  vacationSchema,
  vacationRequestSchema,
  activeVacationsOf,
  repliersOf,
  type Replier,
  type Vacation,
  type ActiveVacation,
} from './vacation/vacation-settings';
export { vacationTexts } from './vacation/vacation-texts';
export { isAutoSubmitted } from './vacation/auto-reply-rules';
export { VacationResponder, vacationResponder, type VacationMail, type VacationOutcome } from './vacation/vacation-responder';
export { SrsAddresses, looksLikeSrsAddress, SRS_MAX_AGE_DAYS } from './redirect/srs-addresses';
export { RedirectFailureNotices } from './redirect/redirect-failure-notices';
export {
  MailRedirector,
  mailRedirector,
  MAX_REDIRECT_HOPS,
  REDIRECT_TRACE_HEADER,
  type RedirectedMail,
  type RedirectOutcome,
} from './redirect/mail-redirector';
