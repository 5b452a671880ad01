import { createHash } from 'node:crypto';
import type { RedisConnection } from '@letterbox/redis';

/** How long an address a user signed in from is remembered, and how many are: the newest are kept. */
const REMEMBERED_DAYS = 90;
const REMEMBERED_PER_USER = 20;
const REMEMBERED_MS = REMEMBERED_DAYS * 24 * 3600_000;

/** Adds the address (ARGV[1]) at time ARGV[2], keeps the newest ARGV[3] of those younger than ARGV[4] ms, and the key as long. */
const REMEMBER_SCRIPT = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[4]))
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 0`;

/**
 * The client addresses each user signed in from successfully lately, in Redis (one sorted set per user, so any
 * process knows them; hashed, so Redis holds no plain addresses). A right password from one of them passes the
 * account's lock of wrong passwords, which anybody can set off: the owner's usual address still gets in.
 */
export class KnownClientAddresses {
  constructor(
    private readonly redis: RedisConnection,
    private readonly namespace: string,
  ) {}

  async remember(userId: number, client: string, now = Date.now()): Promise<void> {
    await this.redis.eval(REMEMBER_SCRIPT, 1, this.key(userId), digest(client), now, REMEMBERED_PER_USER, REMEMBERED_MS);
  }

  async isKnown(userId: number, client: string, now = Date.now()): Promise<boolean> {
    const since = await this.redis.zscore(this.key(userId), digest(client));
    return since !== null && Number(since) > now - REMEMBERED_MS;
  }

  private key(userId: number): string {
    return `${this.namespace}:sign-in:known-clients:${userId}`;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 22);
