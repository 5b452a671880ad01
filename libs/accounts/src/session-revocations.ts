import type { RedisConnection } from '@letterbox/redis';
import type { SessionAnnouncer } from './accounts';

/** The Redis channel on which every process hears that a user's tokens ended (see CachedUserSessions). */
export const sessionRevocationsChannel = (queuePrefix: string) => `${queuePrefix}:session-revocations`;

/** What a revocation says: anything of the user changed, or (with `sessionId`) that one session of theirs ended. */
export interface Revocation {
  userId: number;
  sessionId?: string;
}

/** A revocation as the channel carries it: `<userId>` or `<userId>:<sessionId>`. */
export const revocationMessage = ({ userId, sessionId }: Revocation): string => (sessionId ? `${userId}:${sessionId}` : String(userId));

export function parseRevocationMessage(message: string): Revocation {
  const [user, sessionId] = message.split(':');
  return sessionId ? { userId: Number(user), sessionId } : { userId: Number(user) };
}

/**
 * Announces ended sessions for a process that ends users' tokens but serves none itself (the command line).
 * It fails when Redis cannot be told; the change is in the database already, and the API processes notice it
 * within their cache's TTL.
 */
export class RevocationPublisher implements SessionAnnouncer {
  constructor(
    private readonly publisher: RedisConnection,
    private readonly channel: string,
  ) {}

  async announce(userId: number): Promise<void> {
    await this.publisher.publish(this.channel, revocationMessage({ userId }));
  }
}
