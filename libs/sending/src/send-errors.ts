/** Also what another user's send is. */
export class SendNotFoundError extends Error {
  constructor(readonly sendId: number) {
    super(`send ${sendId} does not exist`);
  }
}

export class NoSendOfMailError extends Error {
  constructor(readonly mailId: number) {
    super(`mail ${mailId} is no Sent copy of a send of yours`);
  }
}

export class SendAlreadyStartedError extends Error {
  constructor(
    readonly sendId: number,
    readonly status: string,
  ) {
    super(`send ${sendId} can no longer be cancelled: it is ${status}`);
  }
}

/** The key of an earlier send, given again with a different request. */
export class IdempotencyKeyReusedError extends Error {
  constructor(readonly idempotencyKey: string) {
    super('this Idempotency-Key was used for a different send; use a new key for a new send');
  }
}

/** A reply whose original names nobody to answer (the user's own mail to no one), with no recipient given. */
export class NoRecipientsError extends Error {
  constructor() {
    super('to: give at least one recipient in to, cc or bcc');
  }
}

/** Also what another user's draft, or a mail that is no draft, is. */
export class DraftNotFoundError extends Error {
  constructor(readonly draftId: number) {
    super(`draft ${draftId} does not exist`);
  }
}

/** A save or send naming a version that is no longer the draft's: another tab saved in between. */
export class DraftVersionConflictError extends Error {
  constructor(
    readonly draftId: number,
    readonly expected: number,
    readonly current: number,
  ) {
    super(`draft ${draftId} is at version ${current}, not ${expected}: it was saved elsewhere; reload it before saving`);
  }
}

/** The signed-in user, whose token still stands, was removed meanwhile. */
export class SenderGoneError extends Error {
  constructor() {
    super('the signed-in user no longer exists');
  }
}

/** A `from` that is not one of the sender's own addresses (their primary address or an alias). */
export class NotSendersAddressError extends Error {
  constructor(readonly address: string) {
    super(`from: ${address} is not one of your addresses; send from your own address or one of your aliases`);
  }
}

/** A send or a draft that would take the user's mail past their storage quota. */
export class QuotaExceededError extends Error {
  constructor(
    readonly email: string,
    readonly quotaBytes: number,
    readonly usedBytes: number,
    readonly messageBytes: number,
  ) {
    super(
      `the storage quota of ${email}, ${quotaBytes} bytes, would be exceeded: ${usedBytes} bytes are used and this message takes about ${messageBytes}; delete some mail or ask an administrator for more room`,
    );
  }
}
