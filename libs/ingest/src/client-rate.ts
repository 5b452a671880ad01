/**
 * Counts events per client address in fixed one-minute windows, in this process: enough
 * to stop one address from taking every connection or flooding the queue, without a
 * round trip per event. The counts start again each minute, so memory holds one minute.
 */
export class ClientRate {
  private window = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one event of the client's; false when it is over its rate this minute. */
  take(client: string): boolean {
    const window = Math.floor(this.now() / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const count = (this.counts.get(client) ?? 0) + 1;
    this.counts.set(client, count);
    return count <= this.perMinute;
  }
}
