import { PROBLEM_TYPES, type ErrorClassifier } from '@letterbox/http';
import {
  DmarcRejectedError,
  EmptyMessageError,
  ForeignRecipientsError,
  MessageTooLargeError,
  NoRecipientsError,
  NotAMessageError,
  QuotaExceededError,
  SpamRejectedError,
  UnknownRecipientsError,
} from '@letterbox/ingest';
import { QueueUnavailableError } from '@letterbox/queue';

export const classifyIngestError: ErrorClassifier = (error) => {
  if (error instanceof EmptyMessageError) return { status: 400, detail: `body: ${error.message}` };
  if (error instanceof NotAMessageError) return { status: 422, detail: `body: ${error.message}` };
  if (error instanceof MessageTooLargeError) return { status: 413, detail: `body: ${error.message}` };
  if (error instanceof UnknownRecipientsError) return { status: 422, detail: `query.to: ${error.message}` };
  if (error instanceof ForeignRecipientsError) return { status: 422, detail: `query.to: ${error.message}` };
  // The From domain's owner asks that mail failing DMARC be refused (RFC 7489 §6.6.2).
  if (error instanceof DmarcRejectedError) return { status: 422, type: PROBLEM_TYPES.dmarcRejected, detail: `body: ${error.message}` };
  if (error instanceof SpamRejectedError) return { status: 422, detail: `body: ${error.message}` };
  if (error instanceof NoRecipientsError) return { status: 422, detail: `query.to: ${error.message}` };
  // Nothing was accepted: the gateway may send it again without the full mailboxes, or later.
  if (error instanceof QuotaExceededError) return { status: 507, detail: `query.to: ${error.message}` };
  // Not accepted, so nothing is lost: the gateway retries, as it would after an SMTP 451.
  if (error instanceof QueueUnavailableError)
    return { status: 503, detail: 'the queue is unavailable; the message was not accepted, retry later', retryAfterSeconds: 5 };
  return undefined;
};
