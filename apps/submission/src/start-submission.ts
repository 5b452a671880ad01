import { identitiesOf, signInMailClientWith } from '@letterbox/accounts';
import { databaseFromSettings, primaryOnly } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import { SmtpListeners, tlsKeyPairOf } from '@letterbox/mail-listeners';
import { postgresCheck, redisCheck, storageCheck } from '@letterbox/observability';
import { createJobQueues, type RunningWorker } from '@letterbox/queue';
import { failFastConnection } from '@letterbox/redis';
import { SenderDirectory, SendOutbox, SendSubmission } from '@letterbox/sending';
import { createBlobStore } from '@letterbox/storage';
import { createSubmissionServer, MailSubmission } from '@letterbox/mail-submission';
import type { SubmissionConfig } from './submission.config';

export interface RunningSubmission extends RunningWorker {
  /** The ports bound: SMTPS only with a certificate. */
  ports: { smtpPort: number; smtpsPort?: number };
}

/** The SMTP submission listeners (STARTTLS, and implicit TLS with a certificate), until closed. */
export async function startSubmission(config: SubmissionConfig): Promise<RunningSubmission> {
  const certificate = tlsKeyPairOf({
    cert: { name: 'SUBMISSION_TLS_CERT', value: config.SUBMISSION_TLS_CERT },
    key: { name: 'SUBMISSION_TLS_KEY', value: config.SUBMISSION_TLS_KEY },
    // Without one (the demo's SUBMISSION_ALLOW_PLAINTEXT, as loadSubmissionConfig checked), only the plain port listens.
    needingIt: [],
  });
  const db = databaseFromSettings(config, 'letterbox-submission');
  const blobs = createBlobStore(config);
  const redis = failFastConnection(config, 'redis sign-in');
  const queues = createJobQueues(config);
  const sendSubmission = new SendSubmission({
    db,
    blobs,
    mails: new MailQueries(primaryOnly(db.sql)),
    outbox: new SendOutbox(db, queues),
    queuePrefix: config.QUEUE_PREFIX,
    defaultQuotaBytes: config.USER_QUOTA_BYTES,
  });
  const senders = new SenderDirectory((userIds) => identitiesOf(db, userIds), { maxSize: 100, maxWaitMs: 0 });
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
  const server = createSubmissionServer(signIn, new MailSubmission(blobs, senders, sendSubmission, config.SUBMISSION_MAX_MESSAGE_BYTES), {
    hostname: config.SUBMISSION_HOSTNAME,
    maxClients: config.SUBMISSION_MAX_CLIENTS,
    maxRecipients: config.SUBMISSION_MAX_RECIPIENTS,
    tls: certificate?.pair,
    allowPlaintextAuth: config.SUBMISSION_ALLOW_PLAINTEXT,
  });
  const listeners = new SmtpListeners(server, { implicitTls: certificate !== undefined, certificateFiles: certificate?.files, logName: 'submission' });
  const ports = await listeners.listen(config.SUBMISSION_HOST, config.SUBMISSION_PORT, config.SUBMISSIONS_PORT);
  return {
    ports,
    readiness: { database: postgresCheck(db.sql), redis: redisCheck(redis), storage: storageCheck(blobs) },
    async close() {
      // Sessions in DATA finish first: what they were told is queued must be.
      await listeners.close();
      await queues.close();
      redis.disconnect();
      blobs.close();
      await db.close();
    },
  };
}
