/**
 * What a signed-in user's clients are told about their mail. The webmail refetches mailbox
 * counts on any event, so counts are not carried here.
 */
export type MailEvent = MailCreatedEvent | MailUpdatedEvent | MailDeletedEvent;

export interface MailCreatedEvent {
  type: 'mail.created';
  mailId: number;
  mailboxId: number;
}

/** Flags changed or mail moved (a delete to the trash is a move); `changes` holds each field's new value. */
export interface MailUpdatedEvent {
  type: 'mail.updated';
  mailIds: number[];
  changes: MailEventChanges;
}

/** Deleted for good: gone from every list. */
export interface MailDeletedEvent {
  type: 'mail.deleted';
  mailIds: number[];
}

export interface MailEventChanges {
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
  mailboxId?: number;
}
