import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import { JobQueues } from '@letterbox/queue';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testSettings, unlinkKeys } from '@letterbox/testing';
import { IdempotencyKeyReusedError, NoRecipientsError } from '../send-errors';
import { messageOptions } from '../compose/compose-message';
import { SendOutbox } from './send-outbox';
import type { AnsweredMail, SendRequest } from './send-request';
import { SendSubmission } from './send-submission';
import { SentCopies } from '../sent-copies/sent-copies';
import { senderOf, sendRequest, TEST_QUOTA_BYTES } from '../testing/recorded-sends';

describe('SendSubmission: a send from the request to the queue', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  const answered: Array<{ userId: number; answering: AnsweredMail }> = [];
  let db: Database;
  let connection: RedisConnection;
  let queues: JobQueues;
  let submission: SendSubmission;

  before(() => {
    db = testDatabase();
    connection = failFastConnection(testSettings(), 'test queues');
    queues = new JobQueues(connection, queuePrefix);
    submission = new SendSubmission({
      db,
      blobs,
      mails: new MailQueries(primaryOnly(db.sql)),
      outbox: new SendOutbox(db, queues),
      queuePrefix,
      defaultQuotaBytes: TEST_QUOTA_BYTES,
      onAnswered: async (userId, answering) => {
        answered.push({ userId, answering });
      },
    });
  });

  after(async () => {
    await unlinkKeys(connection, `${queuePrefix}*`);
    await queues.close();
    await db.close();
  });

  async function recordedRequest(sendId: number) {
    const { rows } = await db.sql.query<{ request: SendRequest & { messageId: string } }>('SELECT request FROM outbound_sends WHERE id = $1', [sendId]);
    return rows[0].request;
  }

  test('a send is recorded, then queued for delivery, its Sent copy with it', async () => {
    const user = await createTestUser(db, 'plain');
    const { send, created } = await submission.submit(senderOf(user), sendRequest({ to: [recipient('ann')], saveCopy: true }));
    assert.equal(created, true);
    assert.equal(send.status, 'queued');
    assert.notEqual(send.sentMailId, null);
    assert.equal(await queues.has('deliver-send', { sendId: send.id }), true);
    assert.equal(await queues.has('store-sent-copies', { sendIds: [send.id] }), true);
  });

  test("a send from an address with a name of its own (an identity's) goes out with that name", async () => {
    const user = await createTestUser(db, 'identity');
    const alias = `sales@${user.domain}`;
    const sender = { ...senderOf(user), addresses: [user.email, alias], addressNames: { [alias]: 'Sales desk' } };
    const { send } = await submission.submitRequest(sender, sendRequest({ from: alias.toUpperCase(), to: [recipient('ann')] }));
    const request = await recordedRequest(send.id);
    assert.equal(request.fromName, 'Sales desk');
    const options = messageOptions(
      blobs,
      sender,
      request,
      { messageId: '<m@x>', date: new Date() },
      { recipients: ['ann@x.example'], headerTo: request.to, headerCc: [] },
    );
    assert.deepEqual(options.from, { name: 'Sales desk', address: alias });
    const plain = await recordedRequest((await submission.submitRequest(sender, sendRequest({ to: [recipient('bob')] }))).send.id);
    assert.equal(plain.fromName, undefined, "the primary has no name of its own: the user's");
  });

  test('the same idempotency key gives back the first send; given with another request it is refused', async () => {
    const user = await createTestUser(db, 'retry');
    const request = sendRequest({ to: [recipient('ann')] });
    const first = await submission.submit(senderOf(user), request, 'key-1');
    const again = await submission.submit(senderOf(user), request, 'key-1');
    assert.deepEqual(again, { send: first.send, created: false });
    await assert.rejects(submission.submit(senderOf(user), { ...request, subject: 'Something else' }, 'key-1'), IdempotencyKeyReusedError);
  });

  test('a send to nobody is refused', async () => {
    const user = await createTestUser(db, 'nobody');
    await assert.rejects(submission.submit(senderOf(user), sendRequest({})), NoRecipientsError);
  });

  test('a reply is completed from its original: recipients, subject and conversation; the original is marked answered, and the caller told', async () => {
    const user = await createTestUser(db, 'replier');
    const ann = recipient('ann');
    const { send: original } = await submission.submit(senderOf(user), sendRequest({ to: [ann], subject: 'Plans', saveCopy: true }));
    await new SentCopies(db, blobs, queuePrefix).store([original.id]);
    const mailId = original.sentMailId ?? 0;
    const { send: reply } = await submission.submit(senderOf(user), { ...sendRequest({ subject: '', text: 'Agreed.' }), original: { mailId, mode: 'reply' } });
    const request = await recordedRequest(reply.id);
    const originalMessageId = (await recordedRequest(original.id)).messageId;
    // Answering the user's own mail goes to its recipients.
    assert.deepEqual(request.to, [ann]);
    assert.equal(request.subject, 'Re: Plans');
    assert.deepEqual(request.answering, { mailId, mode: 'reply', messageId: originalMessageId, references: [originalMessageId] });
    assert.equal((await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) } })).answered, true);
    assert.deepEqual(answered, [{ userId: user.id, answering: request.answering }]);
  });
});
