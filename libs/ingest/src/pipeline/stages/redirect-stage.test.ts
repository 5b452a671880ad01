import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { identitiesOf } from '@letterbox/accounts';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import { loadConfig, redisConfig } from '@letterbox/config';
import { primaryOnly, type Database } from '@letterbox/db';
import { createMailAnnouncer } from '@letterbox/events';
import { SieveScripts } from '@letterbox/mail';
import { workerConnection, type JobQueues } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { BounceAddresses, IncomingBounces, mailRedirector, SrsAddresses } from '@letterbox/sending';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testQueues, unlinkKeys, type TestUser } from '@letterbox/testing';
import { createInboundIntake } from '../../create-inbound-intake';
import { UnknownRecipientsError } from '../../inbound-errors';
import type { IngestMessage } from '../ingest-batch';
import { IngestPipeline } from '../ingest-pipeline';
import { ingestStages } from '../ingest-pipeline-stages';

const BOSS = 'boss@elsewhere.example';

/** The redirect stage after the store: a rule's `redirect` sends the message on, unchanged, through the send pipeline, from an SRS address. */
describe('the redirect stage', () => {
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  const srs = new SrsAddresses('a-test-srs-secret-of-at-least-32-characters');
  let db: Database;
  let redis: RedisConnection;
  let queues: JobQueues;
  let user: TestUser;
  let pipeline: IngestPipeline;

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    queues = testQueues(prefix);
    user = await createTestUser(db, 'redirecting');
    // Stored as it was written before the user had the alias it names (a PUT refuses a user's own address now).
    await new SieveScripts(db.sql).put(
      user.id,
      `require "copy";
if header :contains "subject" "forward me" { redirect "${BOSS}"; }
if header :contains "subject" "copy me" { redirect :copy "${BOSS}"; }
if header :contains "subject" "back to me" { redirect "${user.email}"; }`,
    );
    const options = { db, blobs, queues, queuePrefix: prefix, defaultQuotaBytes: 2 ** 31, identitiesOf: (userIds: number[]) => identitiesOf(db, userIds) };
    pipeline = new IngestPipeline(
      ingestStages({
        db,
        blobs,
        redis,
        queuePrefix: prefix,
        queues,
        announcer: createMailAnnouncer({ redis, queuePrefix: prefix, writes: primaryOnly(db.sql) }),
        bounces: new IncomingBounces(db.sql, new BounceAddresses('a-test-bounce-token-secret-of-32-characters')),
        redirector: mailRedirector({ ...options, srs }),
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

  async function fromOutside(subject: string, headers = ''): Promise<{ message: IngestMessage; eml: string }> {
    const messageId = `<${randomUUID()}@example.org>`;
    const eml = `From: Ann <ann@example.org>\r\nTo: ${user.email}\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n${headers}Date: Fri, 27 Nov 2026 10:00:00 +0000\r\n\r\nThe figures.\r\n`;
    const blob = await blobs.put(Buffer.from(eml));
    const message = {
      inboundId: randomUUID(),
      storageKey: blob.key,
      size: blob.size,
      messageId,
      recipientIds: [user.id],
      receivedAt: new Date().toISOString(),
      peer: { ip: '203.0.113.7', helo: 'mx.example.org', mailFrom: 'bounces-ann@example.org', rcptTo: [user.email] },
    };
    return { message, eml };
  }

  async function redirectsOf(subject: string) {
    const { rows } = await db.sql.query<{
      request: { to: string[]; saveCopy: boolean; redirect: { storageKey: string; trace: string; envelopeFrom: string; bounceTo?: string } };
    }>("SELECT request FROM outbound_sends WHERE user_id = $1 AND request ? 'redirect' AND request->>'subject' = $2", [user.id, subject]);
    return rows.map((row) => row.request);
  }

  async function storedFor(message: IngestMessage): Promise<string[]> {
    const { rows } = await db.sql.query<{ role: string }>('SELECT mb.role FROM mails m JOIN mailboxes mb ON mb.id = m.mailbox_id WHERE m.message_id = $1', [
      message.messageId,
    ]);
    return rows.map((row) => row.role);
  }

  async function bytesOf(key: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of blobs.createReadStream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  }

  test('redirect sends the original on from an SRS address and keeps no copy; a retried batch sends it once', async () => {
    const subject = `forward me ${randomUUID().slice(0, 8)}`;
    const { message, eml } = await fromOutside(subject);
    await pipeline.run([message]);
    await pipeline.run([message]);
    assert.deepEqual(await storedFor(message), [], 'not kept: redirect cancels the implicit keep');
    const sends = await redirectsOf(subject);
    assert.equal(sends.length, 1);
    const [send] = sends;
    assert.deepEqual(send.to, [BOSS]);
    assert.equal(send.saveCopy, false);
    assert.match(send.redirect.envelopeFrom, new RegExp(`^SRS0=[a-z2-7]{8}=[A-Z2-7]{2}=example\\.org=bounces-ann@${user.domain.replace(/\./g, '\\.')}$`));
    assert.deepEqual(srs.reverse(send.redirect.envelopeFrom), { sender: 'bounces-ann@example.org' });
    assert.equal(send.redirect.bounceTo, 'bounces-ann@example.org', 'told if the redirect is refused for good');
    assert.match(send.redirect.trace, new RegExp(`^X-Letterbox-Redirected: for <${BOSS}> by <${user.email}>; .+\\r\\n$`));
    assert.equal(await bytesOf(send.redirect.storageKey), eml, 'the original, byte for byte');
  });

  test('a bounce to the SRS address goes back to the original sender from the null sender; an altered or unknown address is refused (550)', async () => {
    const subject = `forward me ${randomUUID().slice(0, 8)}`;
    const { message } = await fromOutside(subject);
    await pipeline.run([message]);
    const [{ redirect }] = await redirectsOf(subject);
    const intake = createInboundIntake({
      sql: db.sql,
      blobs,
      references: new DatabaseBlobReferences(db.sql),
      queues,
      maxMessageBytes: 1024 * 1024,
      defaultQuotaBytes: 2 ** 31,
      srs,
    });
    const srsAddress = redirect.envelopeFrom.toLowerCase();
    await intake.checkRecipient(srsAddress, 0);
    const altered = srsAddress.replace(/^srs0=(.)/, (_, first: string) => `srs0=${first === 'a' ? 'b' : 'a'}`);
    await assert.rejects(intake.checkRecipient(altered, 0), UnknownRecipientsError);
    await assert.rejects(
      intake.checkRecipient(new SrsAddresses('another-secret-of-at-least-32-characters').forward('x@example.org', user.domain), 0),
      UnknownRecipientsError,
    );
    const bounce = `From: MAILER-DAEMON@elsewhere.example\r\nTo: ${redirect.envelopeFrom}\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <${randomUUID()}@elsewhere.example>\r\n\r\nThe boss has left.\r\n`;
    const accepted = await intake.accept({ content: Readable.from([bounce]), envelopeRecipients: [srsAddress], origin: { channel: 'local' } });
    const blob = await blobs.put(Buffer.from(bounce));
    await pipeline.run([
      {
        inboundId: accepted.inboundId,
        storageKey: blob.key,
        size: blob.size,
        messageId: accepted.messageId,
        recipientIds: [],
        bounceTo: [srsAddress],
        receivedAt: new Date().toISOString(),
      },
    ]);
    const { rows } = await db.sql.query<{ request: { to: string[]; redirect: { storageKey: string; trace: string; envelopeFrom: string } } }>(
      'SELECT request FROM outbound_sends WHERE user_id = $1 AND idempotency_key = $2',
      [user.id, `srs-return:${accepted.inboundId}:${srsAddress}`],
    );
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0].request.to, ['bounces-ann@example.org']);
    const { trace, envelopeFrom } = rows[0].request.redirect;
    assert.deepEqual({ trace, envelopeFrom }, { trace: '', envelopeFrom: '' }, 'no trace header, from the null sender');
    assert.equal(await bytesOf(rows[0].request.redirect.storageKey), bounce);
  });

  test('an automatic mail is redirected too, but names no one to tell if the redirect is refused: no bounce answers it', async () => {
    const subject = `forward me ${randomUUID().slice(0, 8)}`;
    const { message } = await fromOutside(subject, 'Auto-Submitted: auto-generated\r\n');
    await pipeline.run([message]);
    const [send] = await redirectsOf(subject);
    assert.deepEqual(srs.reverse(send.redirect.envelopeFrom), { sender: 'bounces-ann@example.org' });
    assert.equal(send.redirect.bounceTo, undefined);
  });

  test('redirect :copy keeps the mail in the inbox as well', async () => {
    const subject = `copy me ${randomUUID().slice(0, 8)}`;
    const { message } = await fromOutside(subject);
    await pipeline.run([message]);
    assert.deepEqual(await storedFor(message), ['inbox']);
    assert.equal((await redirectsOf(subject)).length, 1);
  });

  test("never to the user's own address, nor past 5 redirects: the mail is kept instead", async () => {
    const own = `back to me ${randomUUID().slice(0, 8)}`;
    const looped = `forward me ${randomUUID().slice(0, 8)}`;
    const { message: toSelf } = await fromOutside(own);
    const { message: fifth } = await fromOutside(
      looped,
      'X-Letterbox-Redirected: for <a@x.example> by <b@y.example>; Fri, 27 Nov 2026 09:00:00 +0000\r\n'.repeat(5),
    );
    await pipeline.run([toSelf, fifth]);
    assert.deepEqual(await storedFor(toSelf), ['inbox']);
    assert.deepEqual(await storedFor(fifth), ['inbox']);
    assert.deepEqual(await redirectsOf(own), []);
    assert.deepEqual(await redirectsOf(looped), []);
  });
});
