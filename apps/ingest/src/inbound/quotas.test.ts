import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { CreatedUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import {
  type AppProcess,
  createColleagueOf,
  createTestGroup,
  createTestUser,
  inboxOf,
  type RunningIngestServer,
  setTestQuota,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  usedBytesOf,
  waitFor,
  logFaultsAsExpected,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

// Mail past a quota is refused on purpose: those warnings are expected.
logFaultsAsExpected();

/** About 5 KB: past a quota of 2,000 bytes, well within the default. */
const message = (to: string, messageId: string) =>
  `From: a@example.org\r\nTo: ${to}\r\nSubject: big enough\r\nMessage-ID: ${messageId}\r\n\r\n${'quota '.repeat(800)}\r\n`;
const SMALL_QUOTA = 2000;

describe('quotas of incoming mail: refused before it is acknowledged, never dropped after', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let smtp: Transporter;
  let office: TestUser;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix });
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' });
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });
    office = await createTestUser(db, 'office');
  });

  after(async () => {
    smtp?.close();
    await worker?.stop();
    await ingest?.close();
    await db?.close();
  });

  let serial = 0;
  /** A user of the office; with `quotaBytes`, a quota of their own. */
  async function colleague(quotaBytes?: number): Promise<CreatedUser> {
    const user = await createColleagueOf(db, office, `user-${(serial += 1)}-${randomUUID().slice(0, 6)}`);
    if (quotaBytes !== undefined) await setTestQuota(db, user.id, quotaBytes);
    return user;
  }

  const copiesOf = async (user: CreatedUser, messageId: string) => (await inboxOf(db, user.id)).messageIds.get(messageId) ?? 0;
  const storedFor = (user: CreatedUser, messageId: string) =>
    waitFor(async () => (await copiesOf(user, messageId)) === 1, { what: `${user.email}'s copy of ${messageId}` });
  const processed = (messageId: string) =>
    waitFor(async () => (await db.sql.query("SELECT 1 FROM inbound_acceptances WHERE payload->>'messageId' = $1", [messageId])).rowCount === 0, {
      what: `${messageId} to be processed`,
    });

  /** One message over a connection of its own, MAIL FROM declaring its size (RFC 1870), as mail servers do. */
  async function sendDeclaringSize(to: string[], raw: string): Promise<SMTPConnection.SentMessageInfo> {
    const connection = new SMTPConnection({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });
    await new Promise<void>((resolve, reject) => {
      connection.once('error', reject);
      connection.connect(() => resolve());
    });
    try {
      return await new Promise((resolve, reject) =>
        connection.send({ from: 'a@example.org', to, size: Buffer.byteLength(raw) }, raw, (error, info) => (error ? reject(error) : resolve(info))),
      );
    } finally {
      connection.quit();
    }
  }

  test('a recipient whose mailbox cannot take the size MAIL FROM declared is refused at RCPT with 552 5.2.2; the others get the message', async () => {
    const [full, roomy] = [await colleague(SMALL_QUOTA), await colleague()];
    const messageId = `<declared-${randomUUID()}@example.org>`;
    const info = await sendDeclaringSize([full.email, roomy.email], message(roomy.email, messageId));
    assert.deepEqual(info.accepted, [roomy.email]);
    assert.deepEqual(info.rejected, [full.email]);
    assert.equal(info.rejectedErrors?.[0].responseCode, 552);
    assert.match(info.rejectedErrors?.[0].response ?? '', /5\.2\.2 .*mailbox full/);
    await storedFor(roomy, messageId);
    await processed(messageId);
    assert.equal(await copiesOf(full, messageId), 0);
  });

  test('a mailbox at its quota is refused at RCPT even when no size is declared', async () => {
    const user = await colleague();
    const first = `<first-${randomUUID()}@example.org>`;
    await smtp.sendMail({ envelope: { from: 'a@example.org', to: [user.email] }, raw: message(user.email, first) });
    await storedFor(user, first);
    await setTestQuota(db, user.id, await usedBytesOf(db, user.id));
    await assert.rejects(
      smtp.sendMail({ envelope: { from: 'a@example.org', to: [user.email] }, raw: `To: ${user.email}\r\nSubject: tiny\r\n\r\nhi\r\n` }),
      (error: { responseCode?: number; response?: string }) => {
        assert.equal(error.responseCode, 552);
        assert.match(error.response ?? '', /5\.2\.2/);
        return true;
      },
    );
  });

  test('with no size declared, a message past the quota of every recipient is refused at the end of DATA with 552 5.2.2 and stored for none', async () => {
    const [one, other] = [await colleague(SMALL_QUOTA), await colleague(SMALL_QUOTA)];
    const messageId = `<refused-${randomUUID()}@example.org>`;
    await assert.rejects(
      smtp.sendMail({ envelope: { from: 'a@example.org', to: [one.email, other.email] }, raw: message(one.email, messageId) }),
      (error: { responseCode?: number; response?: string }) => {
        assert.equal(error.responseCode, 552);
        assert.match(
          error.response ?? '',
          new RegExp(`5\\.2\\.2 the mailbox of ${one.email.replace(/\./g, '\\.')} is full: 0 bytes used of its quota of 2000 bytes`),
        );
        return true;
      },
    );
    assert.equal((await db.sql.query("SELECT 1 FROM inbound_acceptances WHERE payload->>'messageId' = $1", [messageId])).rowCount, 0, 'nothing accepted');
    assert.equal(await copiesOf(one, messageId), 0);
  });

  test('with no size declared, a message one recipient can take is accepted, and stored for every recipient accepted at RCPT: nothing acknowledged is lost', async () => {
    const [full, roomy] = [await colleague(SMALL_QUOTA), await colleague()];
    const messageId = `<kept-${randomUUID()}@example.org>`;
    const info = await smtp.sendMail({ envelope: { from: 'a@example.org', to: [full.email, roomy.email] }, raw: message(roomy.email, messageId) });
    assert.deepEqual(info.accepted, [full.email, roomy.email]);
    await storedFor(roomy, messageId);
    await storedFor(full, messageId);
    assert.ok((await usedBytesOf(db, full.id)) > SMALL_QUOTA, 'past its quota by the message in flight, as the intake documents');
  });

  test('a group delivers to the members who can take the message; a group none of whose members can is refused at RCPT', async () => {
    const [full, roomy] = [await colleague(SMALL_QUOTA), await colleague()];
    const crew = `crew-${randomUUID().slice(0, 8)}@${office.domain}`;
    const fullCrew = `full-crew-${randomUUID().slice(0, 8)}@${office.domain}`;
    await createTestGroup(db, office.officeId, crew, { userIds: [full.id, roomy.id] });
    await createTestGroup(db, office.officeId, fullCrew, { userIds: [full.id] });
    const messageId = `<crew-${randomUUID()}@example.org>`;
    const info = await sendDeclaringSize([crew, fullCrew], message(crew, messageId));
    assert.deepEqual(info.accepted, [crew]);
    assert.deepEqual(info.rejected, [fullCrew]);
    assert.equal(info.rejectedErrors?.[0].responseCode, 552);
    await storedFor(roomy, messageId);
    await processed(messageId);
    assert.equal(await copiesOf(full, messageId), 0, 'the full member is left out, and the message was acknowledged for the group');
  });

  test('over HTTP, a recipient past their quota is a 507 problem naming them and their quota, and nothing is accepted for anyone', async () => {
    const [full, roomy] = [await colleague(SMALL_QUOTA), await colleague()];
    const messageId = `<http-${randomUUID()}@example.org>`;
    const answer = await ingest.post(message(roomy.email, messageId), { to: [roomy.email, full.email] });
    assert.equal(answer.status, 507, JSON.stringify(answer.body));
    assert.match(answer.contentType ?? '', /^application\/problem\+json/);
    assert.match(
      answer.body.detail ?? '',
      new RegExp(`the mailbox of ${full.email.replace(/\./g, '\\.')} is full: 0 bytes used of its quota of ${SMALL_QUOTA} bytes`),
    );
    assert.equal((await db.sql.query("SELECT 1 FROM inbound_acceptances WHERE payload->>'messageId' = $1", [messageId])).rowCount, 0);
    const again = await ingest.post(message(roomy.email, messageId), { to: [roomy.email] });
    assert.equal(again.status, 202, 'without them the gateway can deliver it');
    await storedFor(roomy, messageId);
  });
});
