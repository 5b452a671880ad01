import { Logger } from '@nestjs/common';
import type { RedisConnection } from '@letterbox/redis';
import type { Pool } from 'pg';
import { UserSessions, type SessionChange, type SessionState } from '@letterbox/auth';
import { namedStatement } from '@letterbox/db';
import { parseRevocationMessage, revocationMessage } from './session-revocations';

const REVOKE = namedStatement('users-revoke-tokens', 'UPDATE users SET token_version = token_version + 1 WHERE id = $1');
const SESSION_STATE = namedStatement(
  'users-session-state',
  `SELECT u.office_id, u.token_version, u.state, u.password_change_required, o.require_totp AND u.totp_enabled_at IS NULL AS totp_setup_required
   FROM users u JOIN offices o ON o.id = u.office_id WHERE u.id = $1`,
);

interface CacheEntry<T> {
  value: Promise<T>;
  expiresAt: number;
}

export interface SessionCacheOptions {
  /** How long a user's state is served from memory; a revocation announced over Redis ends it at once. */
  ttlMs: number;
  maxEntries: number;
}

/** How often a Redis that cannot say whether a session was signed out is reported while it lasts. */
const WARN_INTERVAL_MS = 30_000;

/**
 * Users' token versions and states, and which sessions were signed out, from memory on nearly every request: the
 * database (and Redis, for a session) is asked once per user (session) per TTL. A change in any process is
 * announced on a Redis channel, and every process forgets that user, or marks that session ended, at once; when
 * that channel's connection is lost (announcements missed), the whole memory is forgotten instead. A signed-out
 * session is a Redis key that lives as long as the session's tokens could.
 */
export class CachedUserSessions extends UserSessions {
  private readonly logger = new Logger('sessions');
  private readonly states = new BoundedCache<number, SessionState | undefined>();
  private readonly endedSessions = new BoundedCache<string, boolean>();
  private readonly listeners = new Set<(change: SessionChange) => void>();
  /** Subscribed to the revocations channel: only then may memory answer. */
  private listening = false;
  private warnedAt = 0;

  constructor(
    private readonly sql: Pool,
    private readonly publisher: RedisConnection,
    subscriber: RedisConnection,
    private readonly channel: string,
    private readonly options: SessionCacheOptions,
  ) {
    super();
    subscriber.on('message', (_channel: string, message: string) => this.heard(message));
    subscriber.on('close', () => {
      this.listening = false;
    });
    // A cluster listens on one of its nodes; ioredis moves the subscription to another when a node goes, with no
    // 'close' and no 'ready', and what was announced meanwhile is lost: nothing remembered from before is trusted.
    subscriber.on('-node', () => this.forgetAll());
    const listen = () => {
      subscriber
        .subscribe(channel)
        .then(() => {
          // Whatever was announced while away is lost: nothing remembered from then is trusted.
          this.forgetAll();
          this.listening = true;
        })
        .catch((error: Error) => this.logger.warn(`cannot listen for revocations: ${error.message}`));
    };
    // Connected already (the app waits for Redis at start), and again after every reconnect.
    if (subscriber.status === 'ready') listen();
    subscriber.on('ready', listen);
  }

  stateOf(userId: number): Promise<SessionState | undefined> {
    return this.remembered(this.states, userId, () => this.load(userId));
  }

  sessionEnded(sessionId: string): Promise<boolean> {
    return this.remembered(this.endedSessions, sessionId, () => this.askEnded(sessionId));
  }

  onChange(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends every token of the user issued so far (a sign-out of every session). */
  async revoke(userId: number): Promise<void> {
    await this.sql.query({ ...REVOKE, values: [userId] });
    await this.announce(userId);
  }

  /**
   * Ends one session (token family) of the user: its tokens stop in every process, the user's others stand.
   * Remembered in Redis for `lifetimeSeconds`, as long as a token of the session could live.
   */
  async endSession(userId: number, sessionId: string, lifetimeSeconds: number): Promise<void> {
    await this.publisher.set(this.endedKey(sessionId), '1', 'EX', lifetimeSeconds);
    this.endedSessions.set(sessionId, Promise.resolve(true), Date.now() + this.options.ttlMs, this.options.maxEntries);
    this.tell({ userId, sessionId });
    await this.publish(revocationMessage({ userId, sessionId }), `sign-out of a session of user ${userId}`);
  }

  /** Tells every process the user's state changed (a revocation, a new password, a removal, TOTP set up). */
  async announce(userId: number): Promise<void> {
    this.states.delete(userId);
    this.tell({ userId });
    await this.publish(revocationMessage({ userId }), `revocation of user ${userId}`);
  }

  private async publish(message: string, what: string): Promise<void> {
    try {
      await this.publisher.publish(this.channel, message);
    } catch (error) {
      // The change is in the database (or Redis's key); other processes' memories end within the TTL.
      this.logger.warn(`${what} not announced, other processes notice within ${this.options.ttlMs} ms: ${(error as Error).message}`);
    }
  }

  private heard(message: string): void {
    const revocation = parseRevocationMessage(message);
    if (revocation.sessionId) this.endedSessions.set(revocation.sessionId, Promise.resolve(true), Date.now() + this.options.ttlMs, this.options.maxEntries);
    else this.states.delete(revocation.userId);
    this.tell(revocation);
  }

  private forgetAll(): void {
    this.states.clear();
    this.endedSessions.clear();
    this.tell({});
  }

  private tell(change: SessionChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private remembered<K, V>(cache: BoundedCache<K, V>, key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const cached = cache.get(key, now);
    if (cached) return cached;
    // Until it listens for revocations, a process asks on every request.
    const value = load();
    if (!this.listening) return value;
    const entry = cache.set(key, value, now + this.options.ttlMs, this.options.maxEntries);
    value.catch(() => cache.deleteEntry(key, entry));
    return value;
  }

  private async load(userId: number): Promise<SessionState | undefined> {
    const { rows } = await this.sql.query<{
      office_id: number;
      token_version: number;
      state: string;
      password_change_required: boolean;
      totp_setup_required: boolean;
    }>({ ...SESSION_STATE, values: [userId] });
    const row = rows[0];
    if (!row) return undefined;
    const setupRequired = row.password_change_required ? 'password-change' : row.totp_setup_required ? 'totp-setup' : undefined;
    return { officeId: row.office_id, tokenVersion: row.token_version, active: row.state === 'active', ...(setupRequired && { setupRequired }) };
  }

  /**
   * Whether Redis holds the session's end. With Redis away the session is taken as not ended (logged): a sign-out
   * of every session, a new password, a disable or a removal still end tokens, being in the database; only a
   * sign-out of one session made before is not known to a process that did not hear of it while Redis was up.
   */
  private async askEnded(sessionId: string): Promise<boolean> {
    try {
      return (await this.publisher.exists(this.endedKey(sessionId))) === 1;
    } catch (error) {
      const now = Date.now();
      if (now - this.warnedAt > WARN_INTERVAL_MS) {
        this.warnedAt = now;
        this.logger.warn(`cannot ask Redis whether sessions were signed out, taking them as not: ${(error as Error).message}`);
      }
      return false;
    }
  }

  private endedKey(sessionId: string): string {
    return `${this.channel}:ended:${sessionId}`;
  }
}

/** A map whose entries expire, holding at most so many: the one set first is forgotten first. */
class BoundedCache<K, V> {
  private readonly entries = new Map<K, CacheEntry<V>>();

  get(key: K, now: number): Promise<V> | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > now ? entry.value : undefined;
  }

  set(key: K, value: Promise<V>, expiresAt: number, maxEntries: number): CacheEntry<V> {
    this.entries.delete(key);
    if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    const entry = { value, expiresAt };
    this.entries.set(key, entry);
    return entry;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Only if it is still this entry: a newer one stays. */
  deleteEntry(key: K, entry: CacheEntry<V>): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
