import type { ErrorClassifier } from '@letterbox/http';
import { IdempotencyKeyReusedError, SendAlreadyStartedError, SendNotFoundError } from '@letterbox/sending';

export const classifySendError: ErrorClassifier = (error) => {
  if (error instanceof SendNotFoundError) return { status: 404, detail: error.message };
  if (error instanceof SendAlreadyStartedError) return { status: 409, detail: error.message };
  if (error instanceof IdempotencyKeyReusedError) return { status: 422, detail: `header.idempotency-key: ${error.message}` };
  return undefined;
};
