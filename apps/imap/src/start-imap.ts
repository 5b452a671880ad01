import { createSecureContext, type SecureContext } from 'node:tls';
import { confirmPassword, signInMailClientWith } from '@letterbox/accounts';
import { databaseFromSettings, readRouting } from '@letterbox/db';
import { createMailAnnouncer, eventSubscriberConnection, mailCreatedEvents, UserEventFeed } from '@letterbox/events';
import { ConnectionLimits, ImapMailboxes, ImapServer } from '@letterbox/imap';
import {
  BulkMailChanges,
  ChangeMailboxes,
  ChangeMailsInBulk,
  ImapAppend,
  ImapExpunge,
  ImapFlagChanges,
  ImapMailTransfers,
  imapMailboxState,
  ImapMessages,
  imapSearch,
  imapThreads,
  MailboxChanges,
  MailboxQueries,
  MailContentReader,
  MailQueries,
  MailMimeTrees,
  MailSectionReader,
} from '@letterbox/mail';
import { AppendedDrafts, SentCopies, SentFolderAppends } from '@letterbox/sending';
import { watchTlsKeyPair } from '@letterbox/mail-listeners';
import { postgresCheck, redisCheck, type DependencyCheck } from '@letterbox/observability';
import { redisConnection, whenReady } from '@letterbox/redis';
import { createBlobStore } from '@letterbox/storage';
import { eventDoorbell } from './event-doorbell';
import type { ImapConfig } from './imap.config';
import { imapTlsSettings } from './imap-tls-settings';

/** RFC 7162 asks servers to take lines of at least 8 KB; 64 KB leaves room for long UID sets. */
const MAX_LINE_BYTES = 64 * 1024;
/** How often the certificate files are looked at, and how long a renewal is given to write both. */
const CERTIFICATE_POLL_MS = 1000;
const CERTIFICATE_SETTLE_MS = 200;

export interface RunningImap {
  port: number;
  /** The implicit-TLS port, when there is a certificate. */
  tlsPort?: number;
  readiness: Record<string, DependencyCheck>;
  /** Says BYE to every session, then lets go of the database and Redis. */
  close(): Promise<void>;
}

export async function startImap(config: ImapConfig): Promise<RunningImap> {
  const tls = imapTlsSettings(config);
  const db = databaseFromSettings(config, 'letterbox-imap');
  const redis = redisConnection(config, 'fail-fast', 'redis sign-in limits');
  await whenReady(redis, Error);
  // The API's counters, known addresses and audit log: wrong passwords count the same over IMAP, SMTP and the API.
  const signIn = signInMailClientWith({
    db,
    redis,
    queuePrefix: config.QUEUE_PREFIX,
    limits: {
      perAccount: config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
      perClient: config.SIGN_IN_MAX_FAILURES_PER_CLIENT,
      windowSeconds: config.SIGN_IN_WINDOW_SECONDS,
    },
  });
  const routing = readRouting(db, redis, config.QUEUE_PREFIX);
  const limits = new ConnectionLimits({
    perAddress: config.IMAP_MAX_CONNECTIONS_PER_ADDRESS,
    perUser: config.IMAP_MAX_CONNECTIONS_PER_USER,
    redis,
    namespace: config.QUEUE_PREFIX,
  });
  const blobs = createBlobStore(config);
  const announcer = createMailAnnouncer({ redis, queuePrefix: config.QUEUE_PREFIX, writes: routing });
  const appender = new ImapAppend(db, blobs, announcer, config.USER_QUOTA_BYTES);
  const seen = new ChangeMailsInBulk(new BulkMailChanges(db.sql), announcer);
  const subscriber = eventSubscriberConnection(config, `letterbox-imap-events-${config.QUEUE_PREFIX}`);
  await whenReady(subscriber, Error);
  const feed = new UserEventFeed(subscriber, redis, config.QUEUE_PREFIX);
  let context: SecureContext | undefined = tls && createSecureContext(tls.pair);
  const watch =
    tls &&
    watchTlsKeyPair(
      tls.files,
      (pair) => {
        context = createSecureContext(pair);
      },
      { pollMs: CERTIFICATE_POLL_MS, settleMs: CERTIFICATE_SETTLE_MS },
    );
  const server = new ImapServer({
    services: {
      checkPassword: (email, password, clientAddress) => signIn({ address: email, password, clientAddress, protocol: 'imap' }),
      mailboxes: new ImapMailboxes(new MailboxQueries(routing)),
      messages: new ImapMessages(db),
      mailboxState: (userId, mailboxId) => imapMailboxState(db, userId, mailboxId),
      sections: new MailSectionReader(blobs),
      mimeTrees: new MailMimeTrees(db, blobs),
      flagChanges: new ImapFlagChanges(db, announcer),
      transfers: new ImapMailTransfers(db, announcer, config.USER_QUOTA_BYTES),
      expunger: new ImapExpunge(db, announcer),
      appender,
      sentAppends: new SentFolderAppends(
        db,
        appender,
        new SentCopies(db, blobs, config.QUEUE_PREFIX, (stored) => announcer.announce(mailCreatedEvents(stored))),
      ),
      appendedDrafts: new AppendedDrafts(db, new MailQueries(routing), new MailContentReader(blobs)),
      appendLimit: config.IMAP_MAX_APPEND_BYTES,
      search: (userId, mailboxId, criterion) => imapSearch(db, blobs, userId, mailboxId, criterion),
      sort: (userId, mailboxId, criterion, keys) => imapSearch(db, blobs, userId, mailboxId, criterion, keys),
      thread: (userId, mailboxId, criterion, algorithm) => imapThreads(db, blobs, userId, mailboxId, criterion, algorithm),
      markSeen: async (userId, mailIds) => void (await seen.apply(userId, { ids: mailIds }, { changes: { seen: true } })),
      doorbell: eventDoorbell(feed),
      changeMailboxes: new ChangeMailboxes(new MailboxChanges(db.sql, (userId, password) => confirmPassword(db, userId, password)), announcer),
      limits,
      allowPlaintext: config.IMAP_ALLOW_PLAINTEXT,
      tlsContext: () => context,
    },
    limits: { maxLineBytes: MAX_LINE_BYTES, maxLiteralBytes: config.IMAP_MAX_LITERAL_BYTES, maxCommandBytes: config.IMAP_MAX_COMMAND_BYTES },
    idleTimeoutMs: config.IMAP_IDLE_TIMEOUT_MS,
  });
  const ports = await server.listen(config.IMAP_HOST, config.IMAP_PORT, tls ? config.IMAPS_PORT : undefined);
  return {
    ...ports,
    readiness: { postgres: postgresCheck(db.sql), redis: redisCheck(redis) },
    async close() {
      watch?.close();
      feed.close();
      await server.close();
      limits.close();
      subscriber.disconnect();
      redis.disconnect();
      await db.close();
    },
  };
}
