import { AuditLog } from '@letterbox/audit';
import { FailedAttemptLimiter, KnownClientAddresses, type AttemptLimits } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import type { RedisConnection } from '@letterbox/redis';
import { AppPasswordStore } from '../app-passwords/app-password-store';
import { SecurityEvents } from '../security-events';
import { mailClientSignIn, type SignInMailClient } from './mail-client-sign-in';

export interface MailClientSignInSettings {
  db: Database;
  /** The Redis the API's sign-in counts wrong passwords in. */
  redis: RedisConnection;
  /** QUEUE_PREFIX: the API's namespace, so these counters are the API's. */
  queuePrefix: string;
  /** SIGN_IN_MAX_FAILURES_PER_ACCOUNT, SIGN_IN_MAX_FAILURES_PER_CLIENT, SIGN_IN_WINDOW_SECONDS. */
  limits: AttemptLimits;
}

/** signInMailClient as a mail server runs it: on the API's counters, known addresses and audit log. */
export function signInMailClientWith({ db, redis, queuePrefix, limits }: MailClientSignInSettings): SignInMailClient {
  return mailClientSignIn({
    db,
    passwordAttempts: new FailedAttemptLimiter(redis, queuePrefix, limits),
    knownClients: new KnownClientAddresses(redis, queuePrefix),
    appPasswords: new AppPasswordStore(db.sql),
    events: new SecurityEvents(new AuditLog(db.sql)),
  });
}
