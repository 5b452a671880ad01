import type { ErrorClassifier } from '@letterbox/http';
import { MailboxLockedError, MailNotFoundError } from '@letterbox/mail';
import {
  DraftNotFoundError,
  DraftVersionConflictError,
  IdempotencyKeyReusedError,
  NoRecipientsError,
  NotSendersAddressError,
  QuotaExceededError,
  SendAlreadyStartedError,
  SenderGoneError,
  SendNotFoundError,
  NoSendOfMailError,
} from '@letterbox/sending';

export const classifySendError: ErrorClassifier = (error) => {
  if (error instanceof SendNotFoundError || error instanceof DraftNotFoundError) return { status: 404, detail: error.message };
  if (error instanceof NoSendOfMailError) return { status: 404, detail: error.message };
  if (error instanceof DraftVersionConflictError) return { status: 409, detail: error.message };
  if (error instanceof SendAlreadyStartedError) return { status: 409, detail: error.message };
  if (error instanceof MailNotFoundError) return { status: 404, detail: `original: ${error.message}` };
  if (error instanceof MailboxLockedError) return { status: 423, detail: `original: ${error.message}; unlock it to answer its mail` };
  if (error instanceof NoRecipientsError) return { status: 400, detail: error.message };
  if (error instanceof IdempotencyKeyReusedError) return { status: 422, detail: `header.idempotency-key: ${error.message}` };
  if (error instanceof SenderGoneError) return { status: 401, detail: error.message };
  if (error instanceof NotSendersAddressError) return { status: 403, detail: error.message };
  if (error instanceof QuotaExceededError) return { status: 507, detail: error.message };
  return undefined;
};
