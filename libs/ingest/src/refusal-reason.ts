import { QueueUnavailableError } from '@letterbox/queue';
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
} from './inbound-errors';

/** Why a message was not accepted, in the few words the inbound metric counts refusals by. */
export function refusalReason(error: unknown): string {
  if (error instanceof MessageTooLargeError) return 'too-large';
  if (error instanceof EmptyMessageError || error instanceof NotAMessageError) return 'not-a-message';
  if (error instanceof UnknownRecipientsError || error instanceof NoRecipientsError) return 'no-recipient';
  if (error instanceof ForeignRecipientsError) return 'relay-denied';
  if (error instanceof QuotaExceededError) return 'over-quota';
  if (error instanceof DmarcRejectedError) return 'dmarc-reject';
  if (error instanceof SpamRejectedError) return 'spam-reject';
  if (error instanceof QueueUnavailableError) return 'queue-unavailable';
  if ((error as { code?: unknown } | null)?.code === 'ENOSPC') return 'storage-full';
  return 'error';
}
