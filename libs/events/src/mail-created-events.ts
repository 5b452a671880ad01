import type { UserMailEvent } from './mail-announcer';

/** The events announcing mail just stored, each to its owner. */
export function mailCreatedEvents(mails: Array<{ userId: number; mailId: number; mailboxId: number }>): UserMailEvent[] {
  return mails.map(({ userId, mailId, mailboxId }) => ({ userId, event: { type: 'mail.created', mailId, mailboxId } }));
}
