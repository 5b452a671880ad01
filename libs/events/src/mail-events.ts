/**
 * What a signed-in user's clients are told about their mail. The webmail refetches mailbox
 * counts on any event, so counts are not carried here.
 */
export type MailEvent = MailCreatedEvent | MailUpdatedEvent | MailDeletedEvent | MailsChangedEvent | MailboxChangedEvent;

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

/**
 * Many mails changed at once, more than an event lists by id (MAX_EVENT_MAIL_IDS): lists
 * and counts shown are to be fetched again.
 */
export interface MailsChangedEvent {
  type: 'mails.changed';
  count: number;
  /** Their new values, for mails updated; empty for mails deleted for good. */
  changes: MailEventChanges;
  deleted: boolean;
}

/** A mailbox was made, renamed, locked, unlocked or deleted. */
export interface MailboxChangedEvent {
  type: 'mailbox.changed';
  mailboxId: number;
  deleted: boolean;
}

export interface MailEventChanges {
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
  /** $Answered / $Forwarded, set by a reply or forward sent. */
  answered?: boolean;
  forwarded?: boolean;
  mailboxId?: number;
}
