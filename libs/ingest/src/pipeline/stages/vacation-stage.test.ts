import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { identitiesOf, ownAddressesOf } from '@letterbox/accounts';
import { loadConfig, redisConfig } from '@letterbox/config';
import { primaryOnly, type Database } from '@letterbox/db';
import { createMailAnnouncer } from '@letterbox/events';
import { SaveSieveScript, SieveScripts } from '@letterbox/mail';
import { workerConnection, type JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { BounceAddresses, IncomingBounces, vacationResponder, VacationSettings } from '@letterbox/sending';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testQueues, unlinkKeys, type TestUser } from '@letterbox/testing';
import type { IngestMessage } from '../ingest-batch';
import { IngestPipeline } from '../ingest-pipeline';
import { ingestStages } from '../ingest-pipeline-stages';

/** The vacation stage after the announcement: out-of-office replies through the send pipeline, as RFC 3834 allows them. */
describe('the vacation stage', () => {
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  let db: Database;
  let redis: RedisConnection;
  let queues: JobQueues;
  let user: TestUser;
  let pipeline: IngestPipeline;

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    queues = testQueues(prefix);
    user = await createTestUser(db, 'away');
    await new VacationSettings(db.sql).put(user.id, {
      enabled: true,
      from: new Date(Date.now() - 60_000).toISOString(),
      until: new Date(Date.now() + 86_400_000).toISOString(),
      subject: 'Away until Monday',
      text: 'I am away until Monday.',
      html: '<p onclick="steal()">I am <b>away</b> until Monday.</p>',
    });
    const vacation = vacationResponder({
      db,
      blobs,
      queues,
      queuePrefix: prefix,
      defaultQuotaBytes: 2 ** 31,
      identitiesOf: (userIds) => identitiesOf(db, userIds),
    });
    pipeline = new IngestPipeline(
      ingestStages({
        db,
        blobs,
        redis,
        queuePrefix: prefix,
        queues,
        announcer: createMailAnnouncer({ redis, queuePrefix: prefix, writes: primaryOnly(db.sql) }),
        bounces: new IncomingBounces(db.sql, new BounceAddresses('a-test-bounce-token-secret-of-32-characters')),
        vacation,
        logger: pino({ level: 'silent' }),
      }),
    );
  });

  after(async () => {
    await queues?.close();
    if (redis) await unlinkKeys(redis, `${prefix}:*`);
    redis?.disconnect();
    await db?.close();
  });

  async function fromOutside(from: string, options: { to?: string; headers?: string; recipient?: TestUser } = {}): Promise<IngestMessage> {
    const recipient = options.recipient ?? user;
    const messageId = `<${randomUUID()}@example.org>`;
    const eml = `From: ${from}\r\nTo: ${options.to ?? recipient.email}\r\nSubject: Question\r\nMessage-ID: ${messageId}\r\n${options.headers ?? ''}Date: Fri, 27 Nov 2026 10:00:00 +0000\r\n\r\nAre you there?\r\n`;
    const blob = await blobs.put(Buffer.from(eml));
    return {
      inboundId: randomUUID(),
      storageKey: blob.key,
      size: blob.size,
      messageId,
      recipientIds: [recipient.id],
      receivedAt: new Date().toISOString(),
      peer: { ip: '203.0.113.7', helo: 'mx.example.org', mailFrom: from, rcptTo: [recipient.email] },
    };
  }

  async function repliesTo(address: string, from = user) {
    const { rows } = await db.sql.query<{
      request: { to: string[]; subject: string; text?: string; html?: string; saveCopy: boolean; autoSubmitted?: string; answering?: { messageId: string } };
    }>("SELECT request FROM outbound_sends WHERE user_id = $1 AND request->'to' ? $2", [from.id, address]);
    return rows.map((row) => row.request);
  }

  test('an outside sender gets one reply a week, through the send pipeline, marked as an automatic answer to their mail', async () => {
    const sender = `carol-${randomUUID().slice(0, 8)}@example.org`;
    const first = await fromOutside(sender);
    await pipeline.run([first]);
    await pipeline.run([await fromOutside(sender)]);
    const replies = await repliesTo(sender);
    assert.equal(replies.length, 1, 'one reply, however many mails');
    const [reply] = replies;
    assert.equal(reply.subject, 'Away until Monday');
    assert.equal(reply.autoSubmitted, 'auto-replied');
    assert.equal(reply.saveCopy, false, 'no Sent copy');
    assert.equal(reply.answering?.messageId, first.messageId);
    assert.doesNotMatch(reply.html ?? '', /onclick/, 'the HTML was sanitized');
  });

  test('no reply to lists, bulk or automatic mail, machines, the null sender, or mail where the user is not in To or Cc', async () => {
    const cases: Array<[what: string, from: string, IngestMessage]> = [];
    const add = async (what: string, from: string, options: { to?: string; headers?: string } = {}) =>
      cases.push([what, from, await fromOutside(from, options)]);
    await add('list', `list-${randomUUID().slice(0, 8)}@example.org`, { headers: 'List-Id: <news.example.org>\r\n' });
    await add('unsubscribe', `news-${randomUUID().slice(0, 8)}@example.org`, { headers: 'List-Unsubscribe: <mailto:off@example.org>\r\n' });
    await add('bulk', `bulk-${randomUUID().slice(0, 8)}@example.org`, { headers: 'Precedence: bulk\r\n' });
    await add('auto', `robot-${randomUUID().slice(0, 8)}@example.org`, { headers: 'Auto-Submitted: auto-replied\r\n' });
    await add('noreply', 'no-reply@example.org');
    await add('bcc', `dave-${randomUUID().slice(0, 8)}@example.org`, { to: 'someone-else@example.org' });
    const nullSender = await fromOutside(`erin-${randomUUID().slice(0, 8)}@example.org`);
    nullSender.peer = { ...(nullSender.peer as NonNullable<IngestMessage['peer']>), mailFrom: '' };
    await pipeline.run([...cases.map(([, , message]) => message), nullSender]);
    for (const [what, from] of cases) assert.deepEqual(await repliesTo(from), [], what);
    assert.deepEqual(await repliesTo(''), [], 'the null sender');
  });

  test('a script\'s vacation asks for the reply without settings: its text, "Auto:" and the subject, its :addresses as the user\'s', async () => {
    const scripted = await createTestUser(db, 'away-by-script');
    await new SaveSieveScript(db.sql, new SieveScripts(db.sql), (userId) => ownAddressesOf(db, userId)).save(
      scripted.id,
      'require "vacation";\nvacation :days 2 :addresses ["me@old.example"] "Gone fishing.";',
    );
    const sender = `gil-${randomUUID().slice(0, 8)}@example.org`;
    await pipeline.run([await fromOutside(sender, { recipient: scripted, to: 'me@old.example' })]);
    const replies = await repliesTo(sender, scripted);
    assert.equal(replies.length, 1);
    assert.equal(replies[0].subject, 'Auto: Question');
    assert.equal(replies[0].text, 'Gone fishing.');
  });

  test('a Korean user\'s script without :subject answers "자동 응답:" and the subject; a user who chose no language, "Auto:"', async () => {
    const script = 'require "vacation";\nvacation "휴가 중입니다.";';
    const subjectFor = async (locale: string | null) => {
      const scripted = await createTestUser(db, `away-${locale ?? 'unset'}`);
      await db.sql.query('UPDATE users SET locale = $2 WHERE id = $1', [scripted.id, locale]);
      await new SaveSieveScript(db.sql, new SieveScripts(db.sql), (userId) => ownAddressesOf(db, userId)).save(scripted.id, script);
      const sender = `hana-${randomUUID().slice(0, 8)}@example.org`;
      await pipeline.run([await fromOutside(sender, { recipient: scripted })]);
      return (await repliesTo(sender, scripted)).map((reply) => reply.subject);
    };
    assert.deepEqual(await subjectFor('ko'), ['자동 응답: Question']);
    assert.deepEqual(await subjectFor(null), ['Auto: Question']);
  });

  test('the reply is off outside its dates', async () => {
    const settings = new VacationSettings(db.sql);
    const on = await settings.get(user.id);
    await settings.put(user.id, { ...on, from: new Date(Date.now() + 86_400_000).toISOString(), until: null });
    const sender = `frank-${randomUUID().slice(0, 8)}@example.org`;
    await pipeline.run([await fromOutside(sender)]);
    assert.deepEqual(await repliesTo(sender), []);
    await settings.put(user.id, on);
  });
});
