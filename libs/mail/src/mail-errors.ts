/** Also what a mailbox of another user is: callers cannot tell the two apart. */
export class MailboxNotFoundError extends Error {
  constructor(readonly mailboxId: number) {
    super(`mailbox ${mailboxId} does not exist`);
  }
}

/** Mailbox names are unique per user. */
export class MailboxNameTakenError extends Error {
  constructor(readonly mailboxName: string) {
    super(`name: you already have a mailbox named "${mailboxName}"`);
  }
}

export class SystemMailboxError extends Error {
  constructor(
    readonly mailboxId: number,
    readonly role: string,
    action: 'renamed' | 'deleted',
  ) {
    super(`mailbox ${mailboxId} is the ${role} mailbox: system mailboxes cannot be ${action}`);
  }
}

export class WrongPasswordError extends Error {
  constructor() {
    super('password: does not match');
  }
}

export class MailboxLockedError extends Error {
  constructor(readonly mailboxId: number) {
    super(`mailbox ${mailboxId} is locked`);
  }
}

/** Also what a mail of another user, or a deleted one, is. */
export class MailNotFoundError extends Error {
  constructor(readonly mailId: number) {
    super(`mail ${mailId} does not exist`);
  }
}

export class AttachmentNotFoundError extends Error {
  constructor(
    readonly mailId: number,
    readonly partId: string,
  ) {
    super(`mail ${mailId} has no attachment ${partId}`);
  }
}

/** A mail with no files to download together. */
export class NoAttachmentsError extends Error {
  constructor(readonly mailId: number) {
    super(`mail ${mailId} has no attachments`);
  }
}

/** Also what a thread of another user, or one whose mail is all deleted or locked, is. */
export class ThreadNotFoundError extends Error {
  constructor(readonly threadId: number) {
    super(`thread ${threadId} does not exist`);
  }
}

/** A user already runs as many heavy reads (searches, text filters) as one may at once. */
export class TooManyHeavyReadsError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('too many searches at once; try again shortly');
  }
}

/** Mail was being moved into a folder that another request deleted meanwhile: the move did not happen. */
export class MailboxDeletedError extends Error {
  constructor(readonly mailboxId: number) {
    super(`mailbox ${mailboxId} was deleted while mail was being moved into it`);
  }
}

/** Also what another user's change is. */
export class BulkChangeNotFoundError extends Error {
  constructor(readonly changeId: number) {
    super(`bulk change ${changeId} does not exist`);
  }
}

/** A change over a filter that cannot be undone: still running, or not a change of one flag. */
export class BulkChangeNotUndoableError extends Error {
  constructor(
    readonly changeId: number,
    reason: string,
  ) {
    super(`bulk change ${changeId} cannot be undone: ${reason}`);
  }
}
