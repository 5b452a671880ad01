import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { QuotaExceededError, SendRecords, SentCopies, type SendRequest } from '@letterbox/sending';
import { accessTokenFor, createTestUser, SendClient, testBlobStore, testDatabase, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

const request = (subject: string, saveCopy: boolean): SendRequest => ({
  to: [`group-${randomUUID().slice(0, 8)}@recipients.test`],
  cc: [],
  bcc: [],
  subject,
  text: 'one of many',
  important: false,
  saveCopy,
  sendSeparately: false,
  requestReadReceipt: false,
  attachments: [],
});

describe('sends recorded together (group commit)', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let api: RunningSendApi;
  let sender: TestUser;
  let senderWithoutSentMailbox: TestUser;

  before(async () => {
    db = testDatabase();
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix });
    sender = await createTestUser(db, 'grouped');
    senderWithoutSentMailbox = await createTestUser(db, 'no-sent-box');
    await db.sql.query(`DELETE FROM mailboxes WHERE user_id = $1 AND role = 'sent'`, [senderWithoutSentMailbox.id]);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  test('sends that arrive together are written by one statement, each answered with its own send; their Sent copies are stored together', async () => {
    const subjects = Array.from({ length: 20 }, (_, index) => `grouped ${index} ${randomUUID()}`);
    // The group is sent when full: all twenty go together.
    const records = new SendRecords(db, { maxSize: subjects.length, maxWaitMs: 60_000, maxInFlight: 1 });
    const identity = { userId: sender.id, officeId: sender.officeId, email: sender.email, displayName: 'Grouped' };
    const recorded = await Promise.all(subjects.map((subject, index) => records.record(identity, request(subject, index % 2 === 0), { queuePrefix })));

    assert.ok(recorded.every(({ created }) => created));
    assert.equal(new Set(recorded.map(({ send }) => send.id)).size, subjects.length);
    // now() is the transaction's start: one value for every send of one statement.
    const { rows } = await db.sql.query<{ transactions: number }>(
      'SELECT count(DISTINCT requested_at)::int AS transactions FROM outbound_sends WHERE id = ANY($1::int8[])',
      [recorded.map(({ send }) => send.id)],
    );
    assert.equal(rows[0].transactions, 1);
    const keeping = recorded.filter((_, index) => index % 2 === 0).map(({ send }) => send);
    assert.ok(
      recorded.every(({ send }, index) => (send.sentMailId === null) === (index % 2 === 1)),
      'a send keeping a copy is told its mail id at once',
    );
    assert.equal(
      await db.prisma.mail.count({ where: { id: { in: keeping.map((send) => BigInt(send.sentMailId ?? 0)) } } }),
      0,
      'no copy is stored by the request',
    );

    await new SentCopies(db, testBlobStore(), queuePrefix).store(recorded.map(({ send }) => send.id));
    for (const [index, { send }] of recorded.entries()) {
      if (index % 2 === 1) continue;
      const copy = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(send.sentMailId ?? 0) } });
      assert.equal(copy.subject, subjects[index], 'each send has its own Sent copy');
      assert.equal(copy.mailboxId, sender.mailboxes.sent);
    }
  });

  test('a send past its sender’s quota fails alone: the sends recorded with it are kept, in the same statement', async () => {
    const tight = await createTestUser(db, 'tight-quota');
    await db.prisma.user.update({ where: { id: tight.id }, data: { quotaBytes: 1000 } });
    const records = new SendRecords(db, { maxSize: 3, maxWaitMs: 60_000, maxInFlight: 1 });
    const as = (user: TestUser) => ({ userId: user.id, officeId: user.officeId, email: user.email, displayName: 'Quota' });
    const quota = { defaultBytes: 10_000_000, messageBytes: 5000 };
    const [first, refused, third] = await Promise.allSettled([
      records.record(as(sender), request(`fits ${randomUUID()}`, false), { queuePrefix, quota }),
      records.record(as(tight), request(`too big ${randomUUID()}`, false), { queuePrefix, quota }),
      records.record(as(sender), request(`fits too ${randomUUID()}`, false), { queuePrefix, quota }),
    ]);
    assert.equal(first.status, 'fulfilled');
    assert.equal(third.status, 'fulfilled');
    assert.equal(refused.status, 'rejected');
    assert.ok(refused.reason instanceof QuotaExceededError, String(refused.reason));
    assert.equal(refused.reason.quotaBytes, 1000);
    assert.equal(await db.prisma.outboundSend.count({ where: { userId: tight.id } }), 0);
    assert.equal(first.value.send.requestedAt, third.value.send.requestedAt, 'one statement recorded both');
  });

  test('a send the database refuses fails alone: the requests that arrived with it are recorded', async () => {
    const gone = await createTestUser(db, 'gone');
    await db.sql.query('DELETE FROM users WHERE id = $1', [gone.id]);
    const records = new SendRecords(db, { maxSize: 11, maxWaitMs: 60_000, maxInFlight: 1 });
    const identity = (user: TestUser) => ({ userId: user.id, officeId: user.officeId, email: user.email, displayName: 'Together' });
    const answers = await Promise.allSettled([
      ...Array.from({ length: 10 }, (_, index) => records.record(identity(sender), request(`fine ${index}`, true), { queuePrefix })),
      records.record(identity(gone), request('its sender is gone', true), { queuePrefix }),
    ]);

    assert.deepEqual(
      answers.slice(0, 10).map((answer) => answer.status),
      Array.from({ length: 10 }, () => 'fulfilled'),
    );
    assert.equal(answers[10].status, 'rejected');
    assert.match(String((answers[10] as PromiseRejectedResult).reason), /foreign key/);
  });

  test('a Sent copy that cannot be stored fails alone: the copies stored with it are kept, and it stays pending', async () => {
    const client = new SendClient(api.url, accessTokenFor(sender));
    const broken = new SendClient(api.url, accessTokenFor(senderWithoutSentMailbox));
    const to = `together-${randomUUID().slice(0, 8)}@recipients.test`;
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, index) => client.send({ to: [to], subject: `fine ${index}`, text: 'fine' })),
      broken.send({ to: [to], subject: 'no Sent mailbox to keep it in', text: 'refused' }),
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array.from({ length: 11 }, () => 202),
      'the send is accepted: its copy is the worker’s to store',
    );

    const sendIds = answers.map((answer) => (answer.body as { id: number }).id);
    await assert.rejects(new SentCopies(db, testBlobStore(), queuePrefix).store(sendIds), new RegExp(`send ${sendIds[10]}: .*null value`));
    const { rows } = await db.sql.query<{ id: string; sent_copy_pending: boolean; stored: boolean }>(
      'SELECT s.id, s.sent_copy_pending, EXISTS (SELECT 1 FROM mails m WHERE m.id = s.sent_mail_id) AS stored FROM outbound_sends s WHERE s.id = ANY($1::int8[]) ORDER BY s.id',
      [sendIds],
    );
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    assert.ok(
      sendIds.slice(0, 10).every((id) => byId.get(id)?.stored && !byId.get(id)?.sent_copy_pending),
      'the ten copies are stored',
    );
    assert.deepEqual({ ...byId.get(sendIds[10]), id: undefined }, { id: undefined, sent_copy_pending: true, stored: false });
  });
});
