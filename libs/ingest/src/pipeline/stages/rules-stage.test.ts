import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ownAddressesOf } from '@letterbox/accounts';
import { loadConfig, redisConfig } from '@letterbox/config';
import { primaryOnly, type Database } from '@letterbox/db';
import { createMailAnnouncer } from '@letterbox/events';
import { SaveSieveScript, SenderRules, SieveScripts } from '@letterbox/mail';
import { workerConnection, type JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { BounceAddresses, IncomingBounces } from '@letterbox/sending';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testQueues, unlinkKeys, type TestUser } from '@letterbox/testing';
import type { IngestMessage } from '../ingest-batch';
import { IngestPipeline } from '../ingest-pipeline';
import { ingestStages } from '../ingest-pipeline-stages';

const RULES = `require ["fileinto", "imap4flags", "envelope", "reject"];
# rule:[Bills]
if header :contains "subject" "invoice" { addflag "\\\\Seen"; fileinto "Bills"; stop; }
if allof (exists "list-id", envelope :localpart :is "from" "bounces") { fileinto :flags "\\\\Flagged" "Lists"; stop; }
if address :is "from" "pest@example.org" { discard; stop; }
if header :is "subject" "go away" { reject "not wanted"; }
if header :contains "subject" "project x" { fileinto "Project X"; }
`;

/** The rules stage between spam and store: each recipient's Sieve script files, flags or discards their copy. */
describe('the rules stage', () => {
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  let db: Database;
  let redis: RedisConnection;
  let queues: JobQueues;
  let user: TestUser;
  let colleague: TestUser;
  let pipeline: IngestPipeline;
  const folders: Record<string, number> = {};

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    queues = testQueues(prefix);
    user = await createTestUser(db, 'rules');
    colleague = await createTestUser(db, 'rules-colleague');
    for (const name of ['Bills', 'Lists', 'Project X']) {
      const { rows } = await db.sql.query<{ id: number }>("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, $2, 'custom') RETURNING id", [
        user.id,
        name,
      ]);
      folders[name] = rows[0].id;
    }
    await new SaveSieveScript(db.sql, new SieveScripts(db.sql), (userId) => ownAddressesOf(db, userId)).save(user.id, RULES);
    pipeline = new IngestPipeline(
      ingestStages({
        db,
        blobs,
        redis,
        queuePrefix: prefix,
        queues,
        announcer: createMailAnnouncer({ redis, queuePrefix: prefix, writes: primaryOnly(db.sql) }),
        bounces: new IncomingBounces(db.sql, new BounceAddresses('a-test-bounce-token-secret-of-32-characters')),
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

  /** A message from outside to both users, as the SMTP intake queues it. */
  async function fromOutside(subject: string, options: { from?: string; mailFrom?: string; headers?: string } = {}): Promise<IngestMessage> {
    const from = options.from ?? 'someone@example.org';
    const messageId = `<${randomUUID()}@example.org>`;
    const eml = `From: ${from}\r\nTo: ${user.email}, ${colleague.email}\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n${options.headers ?? ''}Date: Fri, 27 Nov 2026 10:00:00 +0000\r\n\r\nHello.\r\n`;
    const blob = await blobs.put(Buffer.from(eml));
    return {
      inboundId: randomUUID(),
      storageKey: blob.key,
      size: blob.size,
      messageId,
      recipientIds: [user.id, colleague.id],
      receivedAt: new Date().toISOString(),
      peer: { ip: '203.0.113.7', helo: 'mx.example.org', mailFrom: options.mailFrom ?? from, rcptTo: [user.email, colleague.email] },
    };
  }

  async function copiesOf(message: IngestMessage): Promise<Map<number, { mailboxId: number; role: string; seen: boolean; flagged: boolean }>> {
    const { rows } = await db.sql.query<{ user_id: number; mailbox_id: number; role: string; seen: boolean; flagged: boolean }>(
      'SELECT m.user_id, m.mailbox_id, mb.role, m.seen, m.flagged FROM mails m JOIN mailboxes mb ON mb.id = m.mailbox_id WHERE m.message_id = $1',
      [message.messageId],
    );
    return new Map(rows.map((row) => [row.user_id, { mailboxId: row.mailbox_id, role: row.role, seen: row.seen, flagged: row.flagged }]));
  }

  test('a rule files a mail into a folder as it arrives, with the flags it sets; a recipient without rules gets it in the inbox', async () => {
    const invoice = await fromOutside('Your invoice for November');
    const list = await fromOutside('Weekly digest', { mailFrom: 'bounces@lists.example.org', headers: 'List-Id: <weekly.lists.example.org>\r\n' });
    const plain = await fromOutside('Lunch?');
    assert.deepEqual(await pipeline.run([invoice, list, plain]), [
      { stored: 2, duplicates: 0 },
      { stored: 2, duplicates: 0 },
      { stored: 2, duplicates: 0 },
    ]);
    assert.deepEqual((await copiesOf(invoice)).get(user.id), { mailboxId: folders.Bills, role: 'custom', seen: true, flagged: false });
    assert.deepEqual((await copiesOf(list)).get(user.id), { mailboxId: folders.Lists, role: 'custom', seen: false, flagged: true });
    assert.equal((await copiesOf(plain)).get(user.id)?.role, 'inbox');
    for (const message of [invoice, list, plain]) {
      assert.deepEqual({ ...(await copiesOf(message)).get(colleague.id), mailboxId: 0 }, { mailboxId: 0, role: 'inbox', seen: false, flagged: false });
    }
    const { rows } = await db.sql.query<{ unread_count: number; total_count: number }>('SELECT unread_count, total_count FROM mailboxes WHERE id = $1', [
      folders.Bills,
    ]);
    assert.deepEqual(rows[0], { unread_count: 0, total_count: 1 }, "the folder's counters know the mail filed read");
  });

  test('discard and reject store nothing for that recipient; the others still get it', async () => {
    const pest = await fromOutside('Hello again', { from: 'pest@example.org' });
    const unwanted = await fromOutside('go away');
    assert.deepEqual(await pipeline.run([pest, unwanted]), [
      { stored: 1, duplicates: 1 },
      { stored: 1, duplicates: 1 },
    ]);
    for (const message of [pest, unwanted]) {
      const copies = await copiesOf(message);
      assert.equal(copies.has(user.id), false);
      assert.equal(copies.get(colleague.id)?.role, 'inbox');
    }
  });

  test('mail headed for Spam stays there, and a folder deleted since the script was saved means the inbox', async () => {
    await new SenderRules(db.sql).put(user.id, 'spammer@example.org', 'block');
    const blockedInvoice = await fromOutside('invoice inside', { from: 'spammer@example.org' });
    await db.sql.query('DELETE FROM mailboxes WHERE id = $1', [folders['Project X']]);
    const project = await fromOutside('About project X');
    await pipeline.run([blockedInvoice, project]);
    assert.equal((await copiesOf(blockedInvoice)).get(user.id)?.role, 'spam');
    assert.equal((await copiesOf(project)).get(user.id)?.role, 'inbox');
  });
});
