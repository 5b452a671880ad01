import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { loadConfig, redisConfig } from '@letterbox/config';
import { primaryOnly, type Database } from '@letterbox/db';
import { createMailAnnouncer } from '@letterbox/events';
import { JOB_DONE, workerConnection, type JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { BounceAddresses, IncomingBounces } from '@letterbox/sending';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testQueues, unlinkKeys, type TestUser } from '@letterbox/testing';
import { dedupKeyOf } from '../dedup-key';
import type { StoredInboundMail } from '../inbound-batch-insert';
import { InboundAcceptances } from '../inbound-acceptances';
import { ingestJobHandlers } from '../ingest-job-handlers';
import type { IngestBatch, IngestMessage } from './ingest-batch';
import { IngestPipeline } from './ingest-pipeline';
import { ingestStages, type IngestPipelineOptions } from './ingest-pipeline-stages';
import type { IngestStage } from './ingest-stage';

const TEST_BOUNCE_SECRET = 'a-test-bounce-token-secret-of-32-characters';

/**
 * A stage as the next features add them (a spam check, the user's rules): it looks at each
 * parsed message and refuses those whose subject names a word. In production it would be a
 * file of its own and a line in ingestStages.
 */
class RefuseBySubject implements IngestStage {
  readonly name = 'refuse-by-subject';

  constructor(private readonly word: string) {}

  async run(batch: IngestBatch): Promise<void> {
    for (const item of batch.ongoing) {
      if (item.prepared?.summary.subject.includes(this.word)) batch.fail(item, new Error(`${item.message.inboundId}: its subject says ${this.word}`));
    }
  }
}

/** The stages of production, with `stage` added after the one named `after`. */
function withStage(options: IngestPipelineOptions, after: string, stage: IngestStage): IngestStage[] {
  const stages = ingestStages(options);
  stages.splice(stages.findIndex(({ name }) => name === after) + 1, 0, stage);
  return stages;
}

describe('the ingest pipeline', () => {
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  let db: Database;
  let redis: RedisConnection;
  let queues: JobQueues;
  let user: TestUser;
  let options: IngestPipelineOptions;
  let pipeline: IngestPipeline;
  /** What the announce stage announced, a list per batch: the stage after it records it. */
  let announced: StoredInboundMail[][];
  let logged: Array<{ msg: string; inboundId?: string }>;

  const recordAnnounced: IngestStage = {
    name: 'record-announced',
    run: async (batch) => void announced.push(batch.ongoing.flatMap((item) => item.stored)),
  };

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    queues = testQueues(prefix);
    user = await createTestUser(db, 'batch');
    announced = [];
    logged = [];
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logged.push(JSON.parse(chunk.toString()) as { msg: string; inboundId?: string });
          done();
        },
      }),
    );
    const announcer = createMailAnnouncer({ redis, queuePrefix: prefix, writes: primaryOnly(db.sql) });
    options = {
      db,
      blobs,
      redis,
      queuePrefix: prefix,
      queues,
      announcer,
      bounces: new IncomingBounces(db.sql, new BounceAddresses(TEST_BOUNCE_SECRET)),
      logger,
    };
    pipeline = new IngestPipeline([...ingestStages(options), recordAnnounced]);
  });

  after(async () => {
    await queues?.close();
    if (redis) await unlinkKeys(redis, `${prefix}:*`);
    redis?.disconnect();
    await db?.close();
  });

  async function accepted(
    recipientIds: number[],
    messageId = `<${randomUUID()}@example.org>`,
    { from = 'a@example.org', subject = 'batch' } = {},
  ): Promise<IngestMessage> {
    const blob = await blobs.put(Buffer.from(`From: ${from}\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n\r\nhello ${randomUUID()}\r\n`));
    return { inboundId: randomUUID(), storageKey: blob.key, size: blob.size, messageId, recipientIds, receivedAt: new Date().toISOString() };
  }

  /** As the intake queues it now: with the key of its sender and Message-ID. */
  async function acceptedFrom(from: string, messageId: string): Promise<IngestMessage> {
    const payload = await accepted([user.id], messageId, { from });
    return { ...payload, dedupKey: dedupKeyOf(from, messageId) };
  }

  async function copies(messageId: string): Promise<number> {
    const { rows } = await db.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM mails WHERE user_id = $1 AND message_id = $2', [
      user.id,
      messageId,
    ]);
    return rows[0].count;
  }

  test('runs its stages in the order listed: dedup, parse, bounce, spam, rules, store, remember, announce', () => {
    assert.deepEqual(
      ingestStages(options).map(({ name }) => name),
      ['dedup', 'parse', 'bounce', 'spam', 'rules', 'store', 'remember', 'announce'],
    );
  });

  test('a batch retried after it was stored (a crash before its jobs completed) stores nothing again, and announces the same mails', async () => {
    const batch = [await accepted([user.id]), await accepted([user.id])];
    announced = [];
    assert.deepEqual(await pipeline.run(batch), [
      { stored: 1, duplicates: 0 },
      { stored: 1, duplicates: 0 },
    ]);
    assert.deepEqual(await pipeline.run(batch), [
      { stored: 0, duplicates: 1 },
      { stored: 0, duplicates: 1 },
    ]);
    const [first, retry] = announced;
    assert.deepEqual(retry.map((mail) => mail.mailId).sort(), first.map((mail) => mail.mailId).sort());
    assert.ok(first.every((mail) => mail.storedNow) && retry.every((mail) => !mail.storedNow));
    for (const payload of batch) assert.equal(await copies(payload.messageId), 1);
  });

  test('a stored mail is announced under the request that brought it: a push notification job and a live event', async () => {
    const message = { ...(await accepted([user.id], undefined, { subject: 'announced' })), requestId: `request-${randomUUID()}` };
    announced = [];
    await pipeline.run([message]);
    const [mail] = announced.flat();
    const push = await queues
      .all()
      .find((queue) => queue.name === 'push-notify')
      ?.getJob(`notify-${mail.mailId}`);
    assert.deepEqual(push?.data, { userId: user.id, mailId: mail.mailId, from: 'a@example.org', subject: 'announced', requestId: message.requestId });
    const history = await redis.xrange(`${prefix}:events:user:${user.id}`, '-', '+');
    assert.ok(
      history.some(([, fields]) => fields[1] === JSON.stringify({ type: 'mail.created', mailId: mail.mailId, mailboxId: mail.mailboxId })),
      'a mail.created event in the user’s history',
    );
  });

  test("a user's usage follows the mail stored and deleted, in the statements that do it (the triggers on mails), duplicates counted once", async () => {
    const owner = await createTestUser(db, 'usage');
    const usage = async () => Number((await db.sql.query<{ used_bytes: string }>('SELECT used_bytes FROM users WHERE id = $1', [owner.id])).rows[0].used_bytes);
    const [first, second] = [await accepted([owner.id, user.id]), await accepted([owner.id])];
    await pipeline.run([first, second, { ...first, inboundId: randomUUID() }]);
    assert.equal(await usage(), first.size + second.size);
    await db.sql.query('UPDATE mails SET deleted_at = now() WHERE user_id = $1 AND message_id = $2', [owner.id, first.messageId]);
    assert.equal(await usage(), second.size, 'mail marked deleted no longer counts');
    await db.sql.query('DELETE FROM mails WHERE user_id = $1', [owner.id]);
    assert.equal(await usage(), 0, 'removing mail already uncounted takes nothing more off');
  });

  test('a redelivery is skipped by Redis; once Redis has forgotten, PostgreSQL still refuses it', async () => {
    const original = await accepted([user.id]);
    await pipeline.run([original]);
    const redelivery = { ...(await accepted([user.id], original.messageId)) };
    announced = [];
    assert.deepEqual(await pipeline.run([redelivery]), [{ stored: 0, duplicates: 1 }]);
    await unlinkKeys(redis, `${prefix}:ingested:*`);
    assert.deepEqual(await pipeline.run([{ ...redelivery, inboundId: randomUUID() }]), [{ stored: 0, duplicates: 1 }]);
    assert.deepEqual(announced.flat(), []);
    assert.equal(await copies(original.messageId), 1);
  });

  test('incoming mail joins its conversation: a reply by In-Reply-To, a Re: by subject', async () => {
    const originalId = `<${randomUUID()}@example.org>`;
    const subject = `Quarterly ${randomUUID()}`;
    await pipeline.run([await accepted([user.id], originalId, { subject })]);
    const replyBlob = await blobs.put(
      Buffer.from(`From: b@example.org\r\nSubject: Re: ${subject}\r\nMessage-ID: <r-${randomUUID()}@example.org>\r\nIn-Reply-To: ${originalId}\r\n\r\nyes\r\n`),
    );
    const reply = {
      inboundId: randomUUID(),
      storageKey: replyBlob.key,
      size: replyBlob.size,
      messageId: `<r@x>`,
      recipientIds: [user.id],
      receivedAt: new Date().toISOString(),
    };
    await pipeline.run([reply, await accepted([user.id], undefined, { subject: `RE: ${subject}` })]);
    const { rows } = await db.sql.query<{ threads: number; mails: number }>(
      'SELECT count(DISTINCT thread_id)::int AS threads, count(*)::int AS mails FROM mails WHERE user_id = $1 AND mail_thread_subject(subject) = lower($2)',
      [user.id, subject],
    );
    assert.deepEqual(rows[0], { threads: 1, mails: 3 });
  });

  test('a reply in the same batch as the mail it answers joins its conversation, a chain of them too; a reused id does not take it', async () => {
    const subject = `Offsite ${randomUUID()}`;
    const message = async (from: string, headers: string, receivedAt: Date, messageId = `<${randomUUID()}@example.org>`): Promise<IngestMessage> => {
      const blob = await blobs.put(Buffer.from(`From: ${from}\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n${headers}\r\nhello\r\n`));
      return {
        inboundId: randomUUID(),
        storageKey: blob.key,
        size: blob.size,
        messageId,
        recipientIds: [user.id],
        receivedAt: receivedAt.toISOString(),
        dedupKey: dedupKeyOf(from, messageId),
      };
    };
    const at = Date.now();
    const original = await message('a@example.org', '', new Date(at));
    const reply = await message('b@example.org', `In-Reply-To: ${original.messageId}\r\n`, new Date(at + 15));
    const impostor = await message('mallory@evil.example', '', new Date(at + 20), reply.messageId);
    const replyToReply = await message('a@example.org', `References: ${original.messageId} ${reply.messageId}\r\n`, new Date(at + 30));
    await pipeline.run([replyToReply, impostor, reply, original]);
    const threadOf = async (inboundId: string) => {
      const { rows } = await db.sql.query<{ thread_id: string; id: string }>(
        'SELECT m.thread_id, m.id FROM inbound_messages im JOIN mails m ON m.id = im.mail_id WHERE im.inbound_id = $1',
        [inboundId],
      );
      return rows[0];
    };
    const root = await threadOf(original.inboundId);
    assert.equal(root.thread_id, root.id);
    assert.equal((await threadOf(reply.inboundId)).thread_id, root.id);
    assert.equal((await threadOf(replyToReply.inboundId)).thread_id, root.id, 'the reply named by both the impostor and the real reply is the real one');
    assert.notEqual((await threadOf(impostor.inboundId)).thread_id, root.id);
  });

  test('the same message twice in one batch is stored once', async () => {
    const first = await accepted([user.id]);
    const second = await accepted([user.id], first.messageId);
    assert.deepEqual(await pipeline.run([first, second]), [
      { stored: 1, duplicates: 0 },
      { stored: 0, duplicates: 1 },
    ]);
    assert.equal(await copies(first.messageId), 1);
  });

  test('a message whose file is missing fails alone; the rest of its batch is stored', async () => {
    const good = await accepted([user.id]);
    const lost = { ...(await accepted([user.id])), storageKey: 'f'.repeat(64) };
    const [stored, failed] = await pipeline.run([good, lost]);
    assert.deepEqual(stored, { stored: 1, duplicates: 0 });
    assert.ok(failed instanceof Error);
    assert.equal(await copies(good.messageId), 1);
    assert.equal(await copies(lost.messageId), 0);
  });

  test('one message for several recipients is read once and stored in each inbox, counters included', async () => {
    const other = await createTestUser(db, 'other');
    const payload = await accepted([user.id, other.id]);
    assert.deepEqual(await pipeline.run([payload]), [{ stored: 2, duplicates: 0 }]);
    const { rows } = await db.sql.query<{ user_id: number; total_count: number; unread_count: number }>(
      `SELECT b.user_id, b.total_count, b.unread_count FROM mailboxes b WHERE b.role = 'inbox' AND b.user_id = $1`,
      [other.id],
    );
    assert.deepEqual(rows, [{ user_id: other.id, total_count: 1, unread_count: 1 }]);
  });

  test('a batch of 100 with 3 poisoned messages stores all 100 in one pass', async () => {
    const poisoned = [
      // An encoded word that decodes to a NUL, and a lone surrogate in the sender's name: values jsonb refuses.
      await accepted([user.id], undefined, { subject: '=?utf-8?Q?a=00b?=', from: '=?utf-16be?B?2AA=?= <a@example.org>' }),
      // Message-IDs longer than an index entry may be (random, so compression cannot shrink them), in jobs queued before ids were bounded.
      await accepted([user.id], `<${randomBytes(1500).toString('hex')}@example.org>`),
      await accepted([user.id], `<${randomBytes(1500).toString('hex')}@example.org>`),
    ];
    const good = await Promise.all(Array.from({ length: 97 }, () => accepted([user.id])));
    const batch = [...good.slice(0, 40), ...poisoned, ...good.slice(40)];
    logged = [];
    announced = [];
    const outcomes = await pipeline.run(batch);
    assert.deepEqual(
      outcomes,
      batch.map(() => ({ stored: 1, duplicates: 0 })),
    );
    assert.equal(announced.flat().length, 100);
    const storedBare = logged.filter(({ msg }) => msg.includes('stored bare')).map(({ inboundId }) => inboundId);
    assert.deepEqual(storedBare.sort(), [poisoned[1].inboundId, poisoned[2].inboundId].sort());
    for (const payload of good) assert.equal(await copies(payload.messageId), 1);
    const { rows } = await db.sql.query<{ subject: string; from_name: string }>(
      `SELECT m.subject, m.from_name FROM mails m JOIN inbound_messages im ON im.mail_id = m.id WHERE im.inbound_id = ANY($1::uuid[]) ORDER BY m.id`,
      [poisoned.map((payload) => payload.inboundId)],
    );
    assert.equal(rows.length, 3);
    assert.equal(rows[0].subject, 'ab');
    assert.equal(rows[0].from_name, '\ufffd');
    assert.match(rows[1].subject, /could not be read/);
    assert.deepEqual(
      await pipeline.run(batch),
      batch.map(() => ({ stored: 0, duplicates: 1 })),
      'a retry stores none again',
    );
  });

  test('a message whose From has no address is stored with an empty sender, searchable, and announced as from an unknown sender', async () => {
    const subject = `anonymous ${randomUUID()}`;
    const payload = await accepted([user.id], undefined, { from: 'undisclosed', subject });
    announced = [];
    assert.deepEqual(await pipeline.run([payload]), [{ stored: 1, duplicates: 0 }]);
    assert.deepEqual(
      announced.flat().map(({ from, subject }) => ({ from, subject })),
      [{ from: '(unknown sender)', subject }],
    );
    const { rows } = await db.sql.query(
      'SELECT m.from_address, m.from_name, s.mail_id IS NOT NULL AS searchable FROM mails m LEFT JOIN mail_search s ON s.mail_id = m.id WHERE m.user_id = $1 AND m.message_id = $2',
      [user.id, payload.messageId],
    );
    assert.deepEqual(rows, [{ from_address: '', from_name: '', searchable: true }]);
  });

  test("an incoming mail's Date header is kept as its sent date, and none without one (SORT and SENTSINCE read its arrival then)", async () => {
    const blob = await blobs.put(Buffer.from('From: a@example.org\r\nDate: Mon, 2 Mar 2026 09:15:00 +0100\r\nSubject: dated\r\n\r\nhello\r\n'));
    const dated = { ...(await accepted([user.id])), storageKey: blob.key, size: blob.size };
    const undated = await accepted([user.id]);
    assert.deepEqual(await pipeline.run([dated, undated]), [
      { stored: 1, duplicates: 0 },
      { stored: 1, duplicates: 0 },
    ]);
    const sentAt = async (messageId: string) =>
      (await db.sql.query<{ sent_at: Date | null }>('SELECT sent_at FROM mails WHERE user_id = $1 AND message_id = $2', [user.id, messageId])).rows[0].sent_at;
    assert.equal((await sentAt(dated.messageId))?.toISOString(), '2026-03-02T08:15:00.000Z');
    assert.equal(await sentAt(undated.messageId), null);
  });

  test('the same Message-ID from another sender is another message; from the same sender, the same one', async () => {
    const messageId = `<predictable-${randomUUID().slice(0, 4)}@bank.example>`;
    const forged = await acceptedFrom('forger@evil.example', messageId);
    const real = await acceptedFrom('alerts@bank.example', messageId);
    const again = await acceptedFrom('ALERTS@bank.example', messageId);
    assert.deepEqual(await pipeline.run([forged]), [{ stored: 1, duplicates: 0 }]);
    assert.deepEqual(await pipeline.run([real, again]), [
      { stored: 1, duplicates: 0 },
      { stored: 0, duplicates: 1 },
    ]);
    assert.equal(await copies(messageId), 2);
  });

  test('a stage added to the list that fails one message fails only that one: the rest of its batch is stored and announced in the same run', async () => {
    const refusing = new IngestPipeline([...withStage(options, 'parse', new RefuseBySubject('REFUSE')), recordAnnounced]);
    const [first, refused, last] = [
      await accepted([user.id]),
      await accepted([user.id], undefined, { subject: 'please REFUSE me' }),
      await accepted([user.id]),
    ];
    announced = [];
    const [stored, failed, storedToo] = await refusing.run([first, refused, last]);
    assert.deepEqual(
      [stored, storedToo],
      [
        { stored: 1, duplicates: 0 },
        { stored: 1, duplicates: 0 },
      ],
    );
    assert.match(String(failed), /its subject says REFUSE/);
    assert.deepEqual(
      announced.flat().map(({ inboundId }) => inboundId),
      [first.inboundId, last.inboundId],
    );
    assert.deepEqual([await copies(first.messageId), await copies(refused.messageId), await copies(last.messageId)], [1, 0, 1]);
  });

  test('in a group’s job, a message a stage fails is split out into a job of its own, and the group is done; a stage that throws retries the group whole', async () => {
    const acceptances = new InboundAcceptances(db.sql, queues);
    const handlersOver = (stages: IngestStage[]) =>
      ingestJobHandlers({ pipeline: new IngestPipeline(stages), acceptances, batches: { maxSize: 10, maxWaitMs: 5 }, logger: pino({ enabled: false }) });
    const group = [await accepted([user.id]), await accepted([user.id], undefined, { subject: 'REFUSE' }), await accepted([user.id])];
    const refusing = handlersOver(withStage(options, 'parse', new RefuseBySubject('REFUSE')));
    assert.deepEqual(await refusing['ingest-mails']({ groupId: randomUUID(), messages: group }), JOB_DONE);
    assert.deepEqual(await Promise.all(group.map(({ messageId }) => copies(messageId))), [1, 0, 1]);
    assert.equal(await queues.has('ingest-mail', group[1]), true, 'the refused message in a job of its own');
    assert.equal(await queues.has('ingest-mail', group[0]), false);

    const down: IngestStage = {
      name: 'down',
      run: () => Promise.reject(new Error('the database is away')),
    };
    const failing = handlersOver(withStage(options, 'parse', down));
    const whole = [await accepted([user.id]), await accepted([user.id])];
    assert.deepEqual(await failing['ingest-mails']({ groupId: randomUUID(), messages: whole }), { outcome: 'retry', reason: 'the database is away' });
    assert.deepEqual(await Promise.all(whole.map(({ messageId }) => copies(messageId))), [0, 0]);
  });
});
