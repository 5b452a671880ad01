import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import { JobQueues } from '@letterbox/queue';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testSettings, unlinkKeys, type TestUser } from '@letterbox/testing';
import { claimDelivery } from '../deliver/delivery-claim';
import { SendAlreadyStartedError, SendNotFoundError } from '../send-errors';
import { SendOutbox } from './send-outbox';
import { SendSubmission } from './send-submission';
import { SentCopies } from '../sent-copies/sent-copies';
import { UserSends } from './user-sends';
import { senderOf, sendRequest, TEST_QUOTA_BYTES } from '../testing/recorded-sends';

describe('UserSends: a user’s own sends, and undo until one goes out', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  let db: Database;
  let connection: RedisConnection;
  let queues: JobQueues;
  let submission: SendSubmission;
  let sends: UserSends;

  before(() => {
    db = testDatabase();
    connection = failFastConnection(testSettings(), 'test queues');
    queues = new JobQueues(connection, queuePrefix);
    const outbox = new SendOutbox(db, queues);
    submission = new SendSubmission({ db, blobs, mails: new MailQueries(primaryOnly(db.sql)), outbox, queuePrefix, defaultQuotaBytes: TEST_QUOTA_BYTES });
    sends = new UserSends(db, outbox);
  });

  after(async () => {
    await unlinkKeys(connection, `${queuePrefix}*`);
    await queues.close();
    await db.close();
  });

  async function submitted(user: TestUser, saveCopy = false, to = recipient('ann')) {
    return (await submission.submit(senderOf(user), sendRequest({ to: [to], saveCopy }))).send;
  }

  test('a user sees the status of their own sends; another user’s is not found', async () => {
    const owner = await createTestUser(db, 'owner');
    const ann = recipient('ann');
    const send = await submitted(owner, false, ann);
    // The status is the submitted send with each recipient's own, all queued until a worker tries them.
    assert.deepEqual(await sends.status(owner.id, send.id), { ...send, recipients: [{ address: ann, status: 'queued', at: send.requestedAt }] });
    const other = await createTestUser(db, 'other');
    await assert.rejects(sends.status(other.id, send.id), SendNotFoundError);
    await assert.rejects(sends.cancel(other.id, send.id), SendNotFoundError);
  });

  test('a queued send is cancelled: its job leaves the queue and its Sent copy returns to Drafts; cancelling again answers the same', async () => {
    const user = await createTestUser(db, 'undo');
    const send = await submitted(user, true);
    await new SentCopies(db, blobs, queuePrefix).store([send.id]);
    assert.equal(await queues.has('deliver-send', { sendId: send.id }), true);
    const cancelled = await sends.cancel(user.id, send.id);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(await queues.has('deliver-send', { sendId: send.id }), false);
    assert.equal((await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(send.sentMailId ?? 0) } })).mailboxId, user.mailboxes.drafts);
    assert.deepEqual(await sends.cancel(user.id, send.id), cancelled);
  });

  test('a send a worker has started can no longer be cancelled', async () => {
    const user = await createTestUser(db, 'late');
    const send = await submitted(user);
    assert.equal(await claimDelivery(db.sql, send.id, null, true), true);
    const refused = await sends.cancel(user.id, send.id).catch((error: unknown) => error);
    assert.ok(refused instanceof SendAlreadyStartedError);
    assert.equal(refused.status, 'sending');
    assert.equal((await sends.status(user.id, send.id)).status, 'sending');
  });
});
