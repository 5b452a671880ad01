import { HttpException, HttpStatus } from '@nestjs/common';
import { sseConnections } from '@letterbox/observability';

/**
 * Counts each user's open event streams in this process and refuses one past the cap. A
 * refusal, not closing the oldest: tabs that each closed another's stream would reconnect
 * and evict each other for ever, and one stolen token must not hold the process's sockets.
 */
export class OpenStreams {
  private readonly perUser = new Map<number, number>();

  constructor(private readonly maxPerUser: number) {}

  /** Counts a stream of the user's; the returned function uncounts it (once). */
  take(userId: number): () => void {
    const open = this.perUser.get(userId) ?? 0;
    if (open >= this.maxPerUser) {
      throw new HttpException(
        `this user has ${open} event streams open, the most allowed; close one (another tab or device) first`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    this.perUser.set(userId, open + 1);
    sseConnections.inc();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      sseConnections.dec();
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left === 0) this.perUser.delete(userId);
      else this.perUser.set(userId, left);
    };
  }
}
