import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { loadConfig, redisConfig, spamCheckConfig } from '@letterbox/config';
import { primaryOnly, type Database } from '@letterbox/db';
import { createMailAnnouncer } from '@letterbox/events';
import { MailQueries, SenderRules } from '@letterbox/mail';
import { spamChecksTotal } from '@letterbox/observability';
import { workerConnection, type JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { BounceAddresses, IncomingBounces } from '@letterbox/sending';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testQueues, unlinkKeys, type TestUser } from '@letterbox/testing';
import { RspamdScanner } from '../../spam/rspamd-scanner';
import type { IngestMessage } from '../ingest-batch';
import { IngestPipeline } from '../ingest-pipeline';
import { ingestStages, type IngestPipelineOptions } from '../ingest-pipeline-stages';

/** The standard test string every spam filter must take for spam (rspamd: action reject). */
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

/** Against the rspamd scripts/setup.sh starts (scripts/rspamd.sh), and one that is not there. */
describe('the spam stage', () => {
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  const settings = loadConfig(spamCheckConfig);
  let db: Database;
  let redis: RedisConnection;
  let queues: JobQueues;
  let user: TestUser;
  let options: IngestPipelineOptions;
  const scanner = new RspamdScanner({ url: settings.RSPAMD_URL, concurrency: 4, timeoutMs: 10_000 });
  // Nothing listens on port 1: each check fails at once, as with rspamd down.
  const absent = new RspamdScanner({ url: 'http://127.0.0.1:1', concurrency: 4, timeoutMs: 2000 });

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    queues = testQueues(prefix);
    user = await createTestUser(db, 'spam');
    options = {
      db,
      blobs,
      redis,
      queuePrefix: prefix,
      queues,
      announcer: createMailAnnouncer({ redis, queuePrefix: prefix, writes: primaryOnly(db.sql) }),
      bounces: new IncomingBounces(db.sql, new BounceAddresses('a-test-bounce-token-secret-of-32-characters')),
      logger: pino({ level: 'silent' }),
    };
  });

  after(async () => {
    await queues?.close();
    if (redis) await unlinkKeys(redis, `${prefix}:*`);
    redis?.disconnect();
    await db?.close();
  });

  function pipelineWith(spamScanner: RspamdScanner): IngestPipeline {
    return new IngestPipeline(ingestStages({ ...options, spam: { scanner: spamScanner, maxBytes: settings.SPAM_CHECK_MAX_BYTES } }));
  }

  /** A message from outside, as the SMTP intake queues it. */
  async function fromOutside(body: string, from = 'someone@example.org'): Promise<IngestMessage> {
    const messageId = `<${randomUUID()}@example.org>`;
    const eml = `From: ${from}\r\nTo: ${user.email}\r\nSubject: an offer\r\nMessage-ID: ${messageId}\r\nDate: Fri, 27 Nov 2026 10:00:00 +0000\r\n\r\n${body}\r\n`;
    const blob = await blobs.put(Buffer.from(eml));
    return {
      inboundId: randomUUID(),
      storageKey: blob.key,
      size: blob.size,
      messageId,
      recipientIds: [user.id],
      receivedAt: new Date().toISOString(),
      peer: { ip: '203.0.113.7', helo: 'mx.example.org', mailFrom: from, rcptTo: [user.email] },
    };
  }

  async function storedOf(message: IngestMessage): Promise<{ mailbox: string; mailId: number }> {
    const { rows } = await db.sql.query<{ role: string; id: string }>(
      'SELECT mb.role, m.id FROM mails m JOIN mailboxes mb ON mb.id = m.mailbox_id WHERE m.user_id = $1 AND m.message_id = $2',
      [user.id, message.messageId],
    );
    assert.equal(rows.length, 1, `${message.messageId} stored once`);
    return { mailbox: rows[0].role, mailId: Number(rows[0].id) };
  }

  async function checks(outcome: string): Promise<number> {
    const { values } = await spamChecksTotal.get();
    return values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
  }

  test('GTUBE lands in Spam, with its score and symbols in the mail details; everyday mail in the inbox, scored', async () => {
    const gtube = await fromOutside(`Buy now!\r\n${GTUBE}`);
    const everyday = await fromOutside('Hi, are we still on for lunch tomorrow? Bring the slides if you can.');
    const outcomes = await pipelineWith(scanner).run([gtube, everyday]);
    assert.deepEqual(outcomes, [
      { stored: 1, duplicates: 0 },
      { stored: 1, duplicates: 0 },
    ]);
    const spam = await storedOf(gtube);
    assert.equal(spam.mailbox, 'spam');
    const detail = await new MailQueries(primaryOnly(db.sql)).record(user.id, spam.mailId);
    assert.equal(detail.spam?.action, 'reject');
    assert.ok((detail.spam?.score ?? 0) >= (detail.spam?.requiredScore ?? Infinity), 'scored at or past the reject score');
    assert.ok(detail.spam?.symbols.some(({ name }) => name === 'GTUBE'));
    const ham = await storedOf(everyday);
    assert.equal(ham.mailbox, 'inbox');
    const hamDetail = await new MailQueries(primaryOnly(db.sql)).record(user.id, ham.mailId);
    assert.equal(hamDetail.spam?.action, 'no action');
  });

  test('with rspamd down, mail is stored unscored in the inbox, and counted', async () => {
    const before = await checks('unavailable');
    const gtube = await fromOutside(GTUBE);
    assert.deepEqual(await pipelineWith(absent).run([gtube]), [{ stored: 1, duplicates: 0 }]);
    const stored = await storedOf(gtube);
    assert.equal(stored.mailbox, 'inbox');
    assert.equal((await new MailQueries(primaryOnly(db.sql)).record(user.id, stored.mailId)).spam, null);
    assert.equal(await checks('unavailable'), before + 1);
  });

  test('mail from someone the user has written to is not put in Spam by its score', async () => {
    const friend = `friend-${randomUUID().slice(0, 8)}@example.org`;
    await db.sql.query('INSERT INTO contacts (user_id, address, sent_count, last_at) VALUES ($1, $2, 1, now())', [user.id, friend]);
    const gtube = await fromOutside(GTUBE, friend.toUpperCase());
    await pipelineWith(scanner).run([gtube]);
    const stored = await storedOf(gtube);
    assert.equal(stored.mailbox, 'inbox');
    assert.equal((await new MailQueries(primaryOnly(db.sql)).record(user.id, stored.mailId)).spam?.action, 'reject');
  });

  test('a blocked sender goes to Spam whatever the score, rspamd down or not; an allowed one never by its score', async () => {
    const blocked = `blocked-${randomUUID().slice(0, 8)}@example.org`;
    const allowed = `allowed-${randomUUID().slice(0, 8)}@example.org`;
    const rules = new SenderRules(db.sql);
    await rules.put(user.id, blocked, 'block');
    await rules.put(user.id, allowed.toUpperCase(), 'allow');
    const everyday = await fromOutside('Hi, are we still on for lunch tomorrow?', blocked.toUpperCase());
    const unscored = await fromOutside('Lunch?', blocked);
    const gtube = await fromOutside(GTUBE, allowed);
    await pipelineWith(scanner).run([everyday, gtube]);
    await pipelineWith(absent).run([unscored]);
    assert.equal((await storedOf(everyday)).mailbox, 'spam');
    assert.equal((await storedOf(unscored)).mailbox, 'spam');
    assert.equal((await storedOf(gtube)).mailbox, 'inbox');
    const withoutCheck = await fromOutside('Lunch again?', blocked);
    await new IngestPipeline(ingestStages(options)).run([withoutCheck]);
    assert.equal((await storedOf(withoutCheck)).mailbox, 'spam', 'SPAM_CHECK off: blocked senders still go to Spam');
  });

  test("a colleague's mail (no peer: local delivery) is not scored", async () => {
    const { peer: _peer, ...local } = await fromOutside(GTUBE);
    const scored = await checks('scored');
    await pipelineWith(scanner).run([local]);
    assert.equal((await storedOf(local)).mailbox, 'inbox');
    assert.equal(await checks('scored'), scored);
  });
});
