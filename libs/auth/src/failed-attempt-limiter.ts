import { createHash } from 'node:crypto';
import type { RedisConnection } from '@letterbox/redis';

export interface AttemptLimits {
  /** Wrong passwords for one account within the window; past them it waits, whoever tries. */
  perAccount: number;
  /** Wrong passwords from one client address within the window, over all accounts. */
  perClient: number;
  windowSeconds: number;
}

/** The wait, in ms, of a counter at or over its limit (ARGV[1]); 0 under it. */
const WAIT_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then
  return math.max(0, redis.call('PTTL', KEYS[1]))
end
return 0`;

/** Counts a failure, answering the count; a counter's window starts with its first failure (ARGV[1]: window, ms). */
const FAILURE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** Seconds each side of an attempt must wait; 0 when it may try now. */
export interface AttemptWaits {
  account: number;
  client: number;
}

/**
 * Wrong-password counters in Redis, so every API process shares them: per account (a guesser spread over many
 * addresses) and per client address (one address trying many accounts). Fixed windows from the first failure.
 * Each script touches one counter, so the counters spread over a Redis Cluster's slots: both of an attempt are
 * asked at once, not in one script, which a cluster allows only over keys of one slot.
 */
export class FailedAttemptLimiter {
  constructor(
    private readonly redis: RedisConnection,
    private readonly namespace: string,
    private readonly limits: AttemptLimits,
  ) {}

  /** Seconds until the account and the address may try again; 0 when both may now. */
  async secondsToWait(account: string, client: string): Promise<number> {
    const waits = await this.waits(account, client);
    return Math.max(waits.account, waits.client);
  }

  /** The account's and the address's waits apart: a sign-in may pass an account's lock with more proof, never an address's. */
  async waits(account: string, client: string): Promise<AttemptWaits> {
    const [accountMs, clientMs] = await Promise.all([
      this.redis.eval(WAIT_SCRIPT, 1, this.accountKey(account), this.limits.perAccount) as Promise<number>,
      this.redis.eval(WAIT_SCRIPT, 1, this.clientKey(client), this.limits.perClient) as Promise<number>,
    ]);
    return { account: Math.ceil(accountMs / 1000), client: Math.ceil(clientMs / 1000) };
  }

  /** Counts a failure for both; true when this one locked the account (reached its limit), to be recorded as a lockout. */
  async recordFailure(account: string, client: string): Promise<boolean> {
    const windowMs = this.limits.windowSeconds * 1000;
    const [accountCount] = await Promise.all(
      [this.accountKey(account), this.clientKey(client)].map((key) => this.redis.eval(FAILURE_SCRIPT, 1, key, windowMs) as Promise<number>),
    );
    return accountCount === this.limits.perAccount;
  }

  /** A right password: the account's count starts again (the address's stays, it may be trying others). */
  async recordSuccess(account: string): Promise<void> {
    await this.redis.del(this.accountKey(account));
  }

  // Hashed: an address or an email of any length makes a short key, and Redis holds no plain addresses.
  private accountKey(account: string): string {
    return `${this.namespace}:sign-in:account:${digest(account.toLowerCase())}`;
  }

  private clientKey(client: string): string {
    return `${this.namespace}:sign-in:client:${digest(client)}`;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);
