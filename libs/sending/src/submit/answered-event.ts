import type { UserMailEvent } from '@letterbox/events';
import type { AnsweredMail } from './send-request';

/** What the user's open clients are told once a send answering or forwarding a mail is recorded: the mail's flag set. */
export function answeredMailEvent(userId: number, answering: AnsweredMail): UserMailEvent {
  const changes = answering.mode === 'forward' ? { forwarded: true } : { answered: true };
  return { userId, event: { type: 'mail.updated', mailIds: [answering.mailId], changes } };
}
