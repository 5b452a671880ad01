import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import type { CreatedUser } from '@letterbox/accounts';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { workerConnection, type JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import {
  addTestAlias,
  addTestGroupMembers,
  type AppProcess,
  createColleagueOf,
  createTestGroup,
  createTestUser,
  inboxOf,
  type RunningIngestServer,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
  unlinkKeys,
  waitFor,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

const message = (to: string, messageId: string) => `From: a@example.org\r\nTo: ${to}\r\nSubject: for ${to}\r\nMessage-ID: ${messageId}\r\n\r\nhello\r\n`;

describe('aliases and groups, over SMTP and HTTP', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let redis: RedisConnection;
  let queues: JobQueues;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let smtp: Transporter;
  let ann: TestUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let dave: CreatedUser;
  const at = (local: string) => `${local}@${ann.domain}`;

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    queues = testQueues(queuePrefix);
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix });
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' });
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });
    ann = await createTestUser(db, 'ann');
    bob = await createColleagueOf(db, ann, 'bob');
    carol = await createColleagueOf(db, ann, 'carol');
    dave = await createColleagueOf(db, ann, 'dave');
    await addTestAlias(db, bob, at('robert'));
    // sales: bob and the group support; support: carol, dave and (a loop the admin API refuses) sales again.
    const sales = await createTestGroup(db, ann.officeId, at('sales'), { userIds: [bob.id] });
    const support = await createTestGroup(db, ann.officeId, at('support'), { userIds: [carol.id, dave.id], groupIds: [sales] });
    await addTestGroupMembers(db, sales, { groupIds: [support] });
  });

  after(async () => {
    smtp?.close();
    await worker?.stop();
    await ingest?.close();
    await queues?.close();
    if (redis) await unlinkKeys(redis, `${queuePrefix}:*`);
    redis?.disconnect();
    await db?.close();
  });

  const copiesOf = async (user: CreatedUser, messageId: string) => (await inboxOf(db, user.id)).messageIds.get(messageId) ?? 0;

  /** The user's stored copy of the message, once its push job is queued and its live event is in the user's history. */
  async function announcedCopy(user: CreatedUser, messageId: string): Promise<number> {
    const mailId = await waitFor(
      async () => {
        const { rows } = await db.sql.query<{ id: string }>('SELECT id FROM mails WHERE user_id = $1 AND message_id = $2', [user.id, messageId]);
        return rows.length === 1 ? Number(rows[0].id) : undefined;
      },
      { what: `${user.email}'s copy` },
    );
    await waitFor(() => queues.has('notify-new-mail', { userId: user.id, mailId, from: '', subject: '' }), { what: `${user.email}'s push job` });
    await waitFor(
      async () => {
        const history = await redis.xrange(`${queuePrefix}:events:user:${user.id}`, '-', '+');
        return history.some(([, fields]) => {
          const event = JSON.parse(fields[1]) as { type: string; mailId: number };
          return event.type === 'mail.created' && event.mailId === mailId;
        });
      },
      { what: `${user.email}'s live event` },
    );
    return mailId;
  }

  test("mail to an alias is accepted at RCPT and stored in its user's inbox", async () => {
    const messageId = `<alias-${randomUUID()}@example.org>`;
    const info = await smtp.sendMail({ envelope: { from: 'a@example.org', to: [at('Robert')] }, raw: message(at('robert'), messageId) });
    assert.deepEqual(info.accepted, [at('Robert')]);
    await announcedCopy(bob, messageId);
    assert.equal(await copiesOf(bob, messageId), 1);
  });

  test('a group delivers once to each member, through a group inside it and to a member addressed directly too: one acceptance, a push and a live event each', async () => {
    const messageId = `<group-${randomUUID()}@example.org>`;
    const info = await smtp.sendMail({ envelope: { from: 'a@example.org', to: [at('sales'), carol.email] }, raw: message(at('sales'), messageId) });
    assert.deepEqual(info.accepted, [at('sales'), carol.email]);
    const inboundId = /queued as ([0-9a-f-]{36})/.exec(String(info.response))?.[1];
    assert.ok(inboundId, String(info.response));
    for (const member of [bob, carol, dave]) await announcedCopy(member, messageId);
    for (const member of [bob, carol, dave]) assert.equal(await copiesOf(member, messageId), 1, `${member.email} has one copy`);
    assert.equal(await copiesOf(ann, messageId), 0, 'ann is in no group');
    const { rows } = await db.sql.query<{ user_id: number }>('SELECT user_id FROM inbound_messages WHERE inbound_id = $1 ORDER BY user_id', [inboundId]);
    assert.deepEqual(
      rows.map((row) => row.user_id),
      [bob.id, carol.id, dave.id].sort((a, b) => a - b),
      'the one acceptance stored a copy per member',
    );
  });

  test('the same group mail again is stored for nobody: each member has it already', async () => {
    const messageId = `<again-${randomUUID()}@example.org>`;
    await smtp.sendMail({ envelope: { from: 'a@example.org', to: [at('support')] }, raw: message(at('support'), messageId) });
    for (const member of [bob, carol, dave]) await announcedCopy(member, messageId);
    const answer = await ingest.post(message(at('support'), messageId), { to: [at('support'), bob.email] });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    await waitFor(async () => (await db.sql.query("SELECT 1 FROM inbound_acceptances WHERE payload->>'messageId' = $1", [messageId])).rowCount === 0, {
      what: 'the second delivery to be processed',
    });
    for (const member of [bob, carol, dave]) assert.equal(await copiesOf(member, messageId), 1);
  });

  test('over HTTP, a group in `to` or in the headers reaches its members; the answer names the addresses given', async () => {
    const byQuery = `<http-group-${randomUUID()}@example.org>`;
    const answer = await ingest.post(message(at('support'), byQuery), { to: [at('support')] });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.recipients, [at('support')]);
    const byHeader = `<header-group-${randomUUID()}@example.org>`;
    assert.equal((await ingest.post(message(`${at('sales')}, someone@elsewhere.example`, byHeader))).status, 202);
    for (const messageId of [byQuery, byHeader]) {
      for (const member of [bob, carol, dave]) await announcedCopy(member, messageId);
    }
  });
});
