import { Logger } from '@nestjs/common';
import type { RedisConnection } from '@letterbox/redis';
import type { Pool } from 'pg';
import { UserSessions, type SessionState } from '@letterbox/auth';
import { namedStatement } from '@letterbox/db';

const REVOKE = namedStatement('users-revoke-tokens', 'UPDATE users SET token_version = token_version + 1 WHERE id = $1');
const SESSION_STATE = namedStatement('users-session-state', 'SELECT office_id, token_version FROM users WHERE id = $1');

interface CacheEntry {
  state: Promise<SessionState | undefined>;
  expiresAt: number;
}

export interface SessionCacheOptions {
  /** How long a user's state is served from memory; a revocation announced over Redis ends it at once. */
  ttlMs: number;
  maxEntries: number;
}

/**
 * Users' token versions, from memory on nearly every request: the database is asked once per user per TTL.
 * A revocation in any process is announced on a Redis channel, and every process forgets that user at once;
 * when that channel's connection is lost (announcements missed), the whole cache is forgotten instead.
 */
export class CachedUserSessions extends UserSessions {
  private readonly logger = new Logger('sessions');
  private readonly cache = new Map<number, CacheEntry>();
  /** Subscribed to the revocations channel: only then may memory answer. */
  private listening = false;

  constructor(
    private readonly sql: Pool,
    private readonly publisher: RedisConnection,
    subscriber: RedisConnection,
    private readonly channel: string,
    private readonly options: SessionCacheOptions,
  ) {
    super();
    subscriber.on('message', (_channel: string, userId: string) => this.cache.delete(Number(userId)));
    subscriber.on('close', () => {
      this.listening = false;
    });
    // A cluster listens on one of its nodes; ioredis moves the subscription to another when a node goes, with no
    // 'close' and no 'ready', and what was announced meanwhile is lost: nothing remembered from before is trusted.
    subscriber.on('-node', () => this.cache.clear());
    const listen = () => {
      subscriber
        .subscribe(channel)
        .then(() => {
          // Whatever was announced while away is lost: nothing remembered from then is trusted.
          this.cache.clear();
          this.listening = true;
        })
        .catch((error: Error) => this.logger.warn(`cannot listen for revocations: ${error.message}`));
    };
    // Connected already (the app waits for Redis at start), and again after every reconnect.
    if (subscriber.status === 'ready') listen();
    subscriber.on('ready', listen);
  }

  stateOf(userId: number): Promise<SessionState | undefined> {
    const now = Date.now();
    const cached = this.cache.get(userId);
    if (cached && cached.expiresAt > now) return cached.state;
    // Until it listens for revocations, a process asks the database on every request.
    const state = this.load(userId);
    if (!this.listening) return state;
    if (this.cache.size >= this.options.maxEntries) this.cache.delete(this.cache.keys().next().value as number);
    const entry = { state, expiresAt: now + this.options.ttlMs };
    this.cache.set(userId, entry);
    state.catch(() => {
      if (this.cache.get(userId) === entry) this.cache.delete(userId);
    });
    return state;
  }

  /** Ends every token of the user issued so far (a sign-out of every session). */
  async revoke(userId: number): Promise<void> {
    await this.sql.query({ ...REVOKE, values: [userId] });
    await this.announce(userId);
  }

  /** Tells every process the user's state changed (a revocation, a new password, a removal). */
  async announce(userId: number): Promise<void> {
    this.cache.delete(userId);
    try {
      await this.publisher.publish(this.channel, String(userId));
    } catch (error) {
      // The change is in the database; other processes' memories end within the TTL.
      this.logger.warn(`revocation of user ${userId} not announced, other processes notice within ${this.options.ttlMs} ms: ${(error as Error).message}`);
    }
  }

  private async load(userId: number): Promise<SessionState | undefined> {
    const { rows } = await this.sql.query<{ office_id: number; token_version: number }>({ ...SESSION_STATE, values: [userId] });
    return rows[0] ? { officeId: rows[0].office_id, tokenVersion: rows[0].token_version } : undefined;
  }
}
