import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { SendRecords, type SendRequest } from '@letterbox/sending';
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

  test('sends that arrive together are written by one statement, each answered with its own send and Sent copy', async () => {
    const subjects = Array.from({ length: 20 }, (_, index) => `grouped ${index} ${randomUUID()}`);
    // The group is sent when full: however slowly the Sent copies are stored, all twenty go together.
    const records = new SendRecords(db, testBlobStore(), { maxSize: subjects.length, maxWaitMs: 60_000, maxInFlight: 1 });
    const identity = { userId: sender.id, officeId: sender.officeId, email: sender.email, displayName: 'Grouped' };
    const recorded = await Promise.all(subjects.map((subject, index) => records.record(identity, request(subject, index % 2 === 0), { queuePrefix })));

    assert.ok(recorded.every(({ created }) => created));
    assert.equal(new Set(recorded.map(({ send }) => send.id)).size, subjects.length);
    // now() is the transaction's start: one value for every send of one statement.
    const { rows } = await db.sql.query<{ transactions: number }>('SELECT count(DISTINCT requested_at)::int AS transactions FROM outbound_sends WHERE id = ANY($1::int8[])', [
      recorded.map(({ send }) => send.id),
    ]);
    assert.equal(rows[0].transactions, 1);
    for (const [index, { send }] of recorded.entries()) {
      if (index % 2 === 1) {
        assert.equal(send.sentMailId, null);
        continue;
      }
      const copy = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(send.sentMailId ?? 0) } });
      assert.equal(copy.subject, subjects[index], 'each send has its own Sent copy');
      assert.equal(copy.mailboxId, sender.mailboxes.sent);
    }
  });

  test('a send the database refuses fails alone: the requests that arrived with it are recorded', async () => {
    const client = new SendClient(api.url, accessTokenFor(sender));
    const broken = new SendClient(api.url, accessTokenFor(senderWithoutSentMailbox));
    const to = `together-${randomUUID().slice(0, 8)}@recipients.test`;
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, index) => client.send({ to: [to], subject: `fine ${index}`, text: 'fine' })),
      broken.send({ to: [to], subject: 'no Sent mailbox to keep it in', text: 'refused' }),
    ]);

    assert.deepEqual(
      answers.slice(0, 10).map((answer) => answer.status),
      Array.from({ length: 10 }, () => 202),
    );
    assert.equal(answers[10].status, 500);
    const { rows } = await db.sql.query<{ count: number }>(`SELECT count(*)::int FROM outbound_sends WHERE request->'to' ? $1`, [to]);
    assert.equal(rows[0].count, 10, 'the refused send left no row');
  });
});
