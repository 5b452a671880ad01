import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface AttemptLimits {
  /** Wrong passwords for one account within the window; past them it waits, whoever tries. */
  perAccount: number;
  /** Wrong passwords from one client address within the window, over all accounts. */
  perClient: number;
  windowSeconds: number;
}

/** The longest wait, in ms, among the counters at or over their limit (ARGV[i] is KEYS[i]'s limit). */
const WAIT_SCRIPT = `
local wait = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i]) then
    wait = math.max(wait, redis.call('PTTL', key))
  end
end
return wait`;

/** Counts a failure on every key; a counter's window starts with its first failure (ARGV[1]: window, ms). */
const FAILURE_SCRIPT = `
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
end
return 0`;

/**
 * Wrong-password counters in Redis, so every API process shares them: per account (a guesser spread over many
 * addresses) and per client address (one address trying many accounts). Fixed windows from the first failure.
 * The keys share one hash tag: the scripts touch both in one slot of a Redis Cluster.
 */
export class FailedAttemptLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly limits: AttemptLimits,
  ) {}

  /** Seconds until the account and the address may try again; 0 when both may now. */
  async secondsToWait(account: string, client: string): Promise<number> {
    const waitMs = (await this.redis.eval(WAIT_SCRIPT, 2, this.accountKey(account), this.clientKey(client), this.limits.perAccount, this.limits.perClient)) as number;
    return Math.ceil(waitMs / 1000);
  }

  async recordFailure(account: string, client: string): Promise<void> {
    await this.redis.eval(FAILURE_SCRIPT, 2, this.accountKey(account), this.clientKey(client), this.limits.windowSeconds * 1000);
  }

  /** A right password: the account's count starts again (the address's stays, it may be trying others). */
  async recordSuccess(account: string): Promise<void> {
    await this.redis.del(this.accountKey(account));
  }

  // Hashed: an address or an email of any length makes a short key, and Redis holds no plain addresses.
  private accountKey(account: string): string {
    return `${this.namespace}:{sign-in}:account:${digest(account.toLowerCase())}`;
  }

  private clientKey(client: string): string {
    return `${this.namespace}:{sign-in}:client:${digest(client)}`;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);
