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
