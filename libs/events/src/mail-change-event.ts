import type { MailEvent, MailEventChanges } from './mail-events';

/** A mail as it stands once a change to it has committed. */
export interface ChangedMailState extends Required<MailEventChanges> {
  id: number;
  deleted: boolean;
}

/**
 * The event announcing a committed change: the mail's new value of each field the change
 * touched, or its deletion. Values come from the stored state, not the request, so the
 * event says what the mail is, whatever else changed it meanwhile.
 */
export function mailChangeEvent(state: ChangedMailState, touched: Array<keyof MailEventChanges>): MailEvent {
  if (state.deleted) return { type: 'mail.deleted', mailIds: [state.id] };
  const changes: MailEventChanges = Object.fromEntries(touched.map((field) => [field, state[field]]));
  return { type: 'mail.updated', mailIds: [state.id], changes };
}
