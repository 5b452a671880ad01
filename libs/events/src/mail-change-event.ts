import type { MailEvent, MailEventChanges } from './mail-events';

/** The fields a user changes on one mail (answered and forwarded are set by sending). */
export type UserMailChanges = Pick<MailEventChanges, 'seen' | 'flagged' | 'important' | 'mailboxId'>;

/** A mail as it stands once a change to it has committed. */
export interface ChangedMailState extends Required<UserMailChanges> {
  id: number;
  deleted: boolean;
}

/**
 * The event announcing a committed change: the mail's new value of each field the change
 * touched, or its deletion. Values come from the stored state, not the request, so the
 * event says what the mail is, whatever else changed it meanwhile.
 */
export function mailChangeEvent(state: ChangedMailState, touched: Array<keyof UserMailChanges>): MailEvent {
  if (state.deleted) return { type: 'mail.deleted', mailIds: [state.id] };
  const changes: MailEventChanges = Object.fromEntries(touched.map((field) => [field, state[field]]));
  return { type: 'mail.updated', mailIds: [state.id], changes };
}

/** An event names at most this many mails; a change set of more is a `mails.changed`. */
export const MAX_EVENT_MAIL_IDS = 1000;

/** One event per change set of a bulk change: the mails updated, and those deleted for good. */
export function bulkChangeEvents(updated: number[], deleted: number[], changes: MailEventChanges): MailEvent[] {
  const events: MailEvent[] = [];
  if (updated.length > MAX_EVENT_MAIL_IDS) events.push({ type: 'mails.changed', count: updated.length, changes, deleted: false });
  else if (updated.length > 0) events.push({ type: 'mail.updated', mailIds: updated, changes });
  if (deleted.length > MAX_EVENT_MAIL_IDS) events.push({ type: 'mails.changed', count: deleted.length, changes: {}, deleted: true });
  else if (deleted.length > 0) events.push({ type: 'mail.deleted', mailIds: deleted });
  return events;
}
