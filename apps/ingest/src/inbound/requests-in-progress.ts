/** POST /v2/inbound requests in progress per client address in this process, so one gateway cannot take every socket and stream. */
export class RequestsInProgress {
  private readonly perClient = new Map<string, number>();

  constructor(readonly maxPerClient: number) {}

  /** Counts a request of the client's, or answers undefined when it has as many in progress as allowed; call the result when it ends. */
  enter(client: string): (() => void) | undefined {
    const current = this.perClient.get(client) ?? 0;
    if (current >= this.maxPerClient) return undefined;
    this.perClient.set(client, current + 1);
    return () => {
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left === 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
    };
  }
}
