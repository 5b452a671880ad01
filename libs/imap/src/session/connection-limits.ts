import { randomUUID } from 'node:crypto';
import { loggerFor } from '@letterbox/observability';
import type { RedisConnection } from '@letterbox/redis';

/** Gives back the place a connection held. */
export type Release = () => void;

export interface ConnectionLimitSettings {
  perAddress: number;
  perUser: number;
  /** The Redis every IMAP process of the platform shares, and the namespace of its keys (QUEUE_PREFIX). */
  redis: RedisConnection;
  namespace: string;
  /** How long a place outlives its process when that process dies without giving it back. */
  leaseMs?: number;
}

const logger = loggerFor('imap');
const LEASE_MS = 180_000;

// A place is a member of the key's sorted set, scored by when its lease ends (Redis's clock: processes on
// machines whose clocks differ agree). Ended leases, a dead process's, are dropped before counting.
const TAKE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

// Renews the leases of the places this process still holds under one key (ARGV[2..]).
const RENEW = `
local time = redis.call('TIME')
local until_ = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[1])
for index = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', until_, ARGV[index]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * Connections open at once, per client address and per signed-in user, across every IMAP process of the
 * platform: past either limit a new one is refused, so one client or one account cannot take every session.
 * Each place is a lease in Redis that its process renews while it holds it, so a killed process's places come
 * back within a lease.
 */
export class ConnectionLimits {
  private readonly process = randomUUID();
  private readonly leaseMs: number;
  private places = 0;
  /** The places this process holds, by key. */
  private readonly held = new Map<string, Set<string>>();
  private readonly renewal: NodeJS.Timeout;

  constructor(private readonly settings: ConnectionLimitSettings) {
    this.leaseMs = settings.leaseMs ?? LEASE_MS;
    this.renewal = setInterval(() => void this.renew(), this.leaseMs / 3);
    this.renewal.unref();
  }

  /** A place for a connection from `address`, or undefined past the limit. */
  connect(address: string): Promise<Release | undefined> {
    return this.take(`address:${address}`, this.settings.perAddress);
  }

  /** A place for a session of the user, or undefined past the limit. */
  signIn(userId: number): Promise<Release | undefined> {
    return this.take(`user:${userId}`, this.settings.perUser);
  }

  /** Stops renewing: the process is closing, and its sessions give their places back as they end. */
  close(): void {
    clearInterval(this.renewal);
  }

  private async take(what: string, limit: number): Promise<Release | undefined> {
    const key = `${this.settings.namespace}:imap:connections:${what}`;
    const member = `${this.process}:${++this.places}`;
    const taken = await this.settings.redis.eval(TAKE, 1, key, member, this.leaseMs, limit);
    if (taken !== 1) return undefined;
    const members = this.held.get(key) ?? new Set<string>();
    this.held.set(key, members.add(member));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      members.delete(member);
      if (members.size === 0) this.held.delete(key);
      this.settings.redis
        .zrem(key, member)
        .catch((error: unknown) => logger.warn({ err: error, key }, 'an IMAP connection place not given back; its lease ends it'));
    };
  }

  private async renew(): Promise<void> {
    await Promise.all(
      [...this.held].map(([key, members]) =>
        this.settings.redis
          .eval(RENEW, 1, key, this.leaseMs, ...members)
          .catch((error: unknown) => logger.warn({ err: error, key }, 'IMAP connection places not renewed')),
      ),
    );
  }
}
