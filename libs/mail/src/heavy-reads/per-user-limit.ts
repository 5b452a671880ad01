import { TooManyHeavyReadsError } from '../mail-errors';

export interface PerUserLimitOptions {
  /** Heavy reads of one user running at once. */
  perUser: number;
  /** How long a read past them waits for one to end before it is refused. */
  waitMs: number;
}

interface UserSlots {
  running: number;
  /** Reads waiting for a slot, first come first served; each is handed the slot of a read that ends. */
  waiting: Array<() => void>;
}

/**
 * At most `perUser` heavy reads of one user run at once, so one user's searches cannot take
 * every connection of the heavy pools from everyone else's. Past them a read waits up to
 * `waitMs`, with at most `perUser` others waiting; then, or at once when the queue is full,
 * it is refused (TooManyHeavyReadsError, answered 429). Kept in this process's memory: each
 * API process (READ_API_WORKERS) allows a user as many, which is what protects its pools.
 */
export class PerUserLimit {
  private readonly users = new Map<number, UserSlots>();

  constructor(private readonly options: PerUserLimitOptions) {}

  async run<T>(userId: number, read: () => Promise<T>): Promise<T> {
    await this.acquire(userId);
    try {
      return await read();
    } finally {
      this.release(userId);
    }
  }

  private acquire(userId: number): Promise<void> {
    let slots = this.users.get(userId);
    if (!slots) {
      slots = { running: 0, waiting: [] };
      this.users.set(userId, slots);
    }
    if (slots.running < this.options.perUser) {
      slots.running++;
      return Promise.resolve();
    }
    const refusal = new TooManyHeavyReadsError(Math.max(1, Math.ceil(this.options.waitMs / 1000)));
    if (slots.waiting.length >= this.options.perUser) return Promise.reject(refusal);
    const queue = slots.waiting;
    return new Promise((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(admit), 1);
        reject(refusal);
      }, this.options.waitMs);
      queue.push(admit);
    });
  }

  /** The slot passes to the first read waiting, if any; a user with none running is forgotten. */
  private release(userId: number): void {
    const slots = this.users.get(userId);
    if (!slots) return;
    const next = slots.waiting.shift();
    if (next) next();
    else if (--slots.running === 0) this.users.delete(userId);
  }
}
