/** Also what another user's send is. */
export class SendNotFoundError extends Error {
  constructor(readonly sendId: number) {
    super(`send ${sendId} does not exist`);
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
