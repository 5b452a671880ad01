import type { ErrorClassifier } from '@letterbox/http';
import { AttachmentNotFoundError, MailboxLockedError, MailboxNotFoundError, MailNotFoundError } from '@letterbox/mail';

/** The mail domain's errors that are answers, not faults. */
export const classifyDomainError: ErrorClassifier = (error) => {
  if (error instanceof MailNotFoundError || error instanceof MailboxNotFoundError || error instanceof AttachmentNotFoundError) {
    return { status: 404, detail: error.message };
  }
  if (error instanceof MailboxLockedError) return { status: 423, detail: `${error.message}; unlock it to read its mail` };
  return undefined;
};
