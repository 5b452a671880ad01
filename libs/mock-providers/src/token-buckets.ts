export interface RateLimit {
  ratePerSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/**
 * One token bucket per account, refilled continuously. The limit is passed on every call,
 * so a change of rate or burst applies at once to every account.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  hasToken(account: string, limit: RateLimit, now = performance.now()): boolean {
    return this.refill(account, limit, now).tokens >= 1;
  }

  take(account: string, limit: RateLimit, now = performance.now()): void {
    this.refill(account, limit, now).tokens -= 1;
  }

  clear(): void {
    this.buckets.clear();
  }

  private refill(account: string, limit: RateLimit, now: number): Bucket {
    const bucket = this.buckets.get(account);
    if (!bucket) {
      const fresh = { tokens: limit.burst, refilledAt: now };
      this.buckets.set(account, fresh);
      return fresh;
    }
    const earned = ((now - bucket.refilledAt) / 1000) * limit.ratePerSecond;
    bucket.tokens = Math.min(limit.burst, bucket.tokens + earned);
    bucket.refilledAt = now;
    return bucket;
  }
}
