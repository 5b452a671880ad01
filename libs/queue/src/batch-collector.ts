export interface BatchLimits {
  /** A batch runs as soon as it has this many items... */
  maxSize: number;
  /** ...or this long after its first item arrived. */
  maxWaitMs: number;
  /**
   * At most this many batches run at once (default: no limit); items arriving meanwhile
   * wait for one to end and then go together (group commit). Under load the batches then
   * grow with the load instead of being one item each, for the same wait.
   */
  maxInFlight?: number;
}

/**
 * Gathers items that arrive one by one (jobs handed over by a worker running many at once)
 * into batches, runs each batch once, and settles each item's promise with its own
 * outcome. A batch that throws fails every item in it. Batches run while the next gathers.
 */
export class BatchCollector<Item, Result> {
  private pending: Array<{ item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }> = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;

  constructor(
    private readonly runBatch: (items: Item[]) => Promise<Array<Result | Error>>,
    private readonly limits: BatchLimits,
  ) {}

  add(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.limits.maxSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.limits.maxWaitMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0 || this.inFlight >= (this.limits.maxInFlight ?? Infinity)) return;
    const batch = this.pending.splice(0, this.limits.maxSize);
    this.inFlight++;
    this.runBatch(batch.map(({ item }) => item))
      .finally(() => {
        this.inFlight--;
        if (this.pending.length > 0 && this.timer === undefined) this.flush();
      })
      .then(
        (outcomes) =>
          batch.forEach((entry, index) => {
            const outcome = outcomes[index];
            if (outcome instanceof Error) entry.reject(outcome);
            else entry.resolve(outcome);
          }),
        (error: unknown) => batch.forEach((entry) => entry.reject(error)),
      );
  }
}
