import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '@letterbox/db';
import { referenceMail } from '@letterbox/mail-generator';
import {
  type AppProcess,
  createTestUser,
  inboxOf,
  type RunningIngestServer,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

const MAX_MESSAGE_BYTES = 900 * 1024;

describe('the SMTP listener, used by a standard SMTP client (nodemailer)', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let alice: TestUser;
  let smtp: Transporter;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix, INGEST_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES) });
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix });
    alice = await createTestUser(db, 'alice');
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });
  });

  after(async () => {
    smtp?.close();
    await worker?.stop();
    await ingest?.close();
    await db?.close();
  });

  test('a message sent over SMTP lands in the inbox, attachments and all', async () => {
    const messageId = `<smtp-${randomUUID()}@example.org>`;
    const raw = await referenceMail('medium', {
      from: { name: 'Sender', address: 'sender@example.org' },
      to: [{ name: 'Alice', address: alice.email }],
      messageId,
    });
    const info = await smtp.sendMail({ envelope: { from: 'sender@example.org', to: [alice.email] }, raw });
    assert.deepEqual(info.accepted, [alice.email]);
    assert.match(String(info.response), /^250 2\.0\.0 queued as [0-9a-f-]{36}/);
    await waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(messageId) === 1, { what: 'the SMTP message in the inbox' });
    const { rows } = await db.sql.query<{ attachments: number }>(
      'SELECT count(*)::int AS attachments FROM attachments a JOIN mails m ON m.id = a.mail_id WHERE m.user_id = $1 AND m.message_id = $2',
      [alice.id, messageId],
    );
    assert.ok(rows[0].attachments > 0);
  });

  test('the same message over HTTP and then SMTP is stored once', async () => {
    const messageId = `twice-${randomUUID()}`;
    const raw = `From: a@example.org\r\nTo: ${alice.email}\r\nSubject: twice\r\nMessage-ID: <${messageId}@example.org>\r\n\r\nhello\r\n`;
    assert.equal((await ingest.post(raw, { to: [alice.email] })).status, 202);
    await waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(`<${messageId}@example.org>`) === 1, { what: 'the first copy' });
    await smtp.sendMail({ envelope: { from: 'a@example.org', to: [alice.email] }, raw });
    const user = await inboxOf(db, alice.id);
    await waitFor(async () => (await db.sql.query('SELECT 1 FROM inbound_messages WHERE user_id = $1', [alice.id])).rowCount === user.total, {
      what: 'the redelivery to be processed',
    });
    assert.equal((await inboxOf(db, alice.id)).messageIds.get(`<${messageId}@example.org>`), 1);
  });

  test('a message without a From header is accepted and stored with an unknown sender', async () => {
    const messageId = `<senderless-${randomUUID()}@example.org>`;
    const raw = `To: ${alice.email}\r\nSubject: who sent this?\r\nMessage-ID: ${messageId}\r\n\r\nhello\r\n`;
    const info = await smtp.sendMail({ envelope: { from: 'a@example.org', to: [alice.email] }, raw });
    assert.match(String(info.response), /^250 2\.0\.0 queued as/);
    await waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(messageId) === 1, { what: 'the senderless message in the inbox' });
    const { rows } = await db.sql.query('SELECT from_address, from_name FROM mails WHERE user_id = $1 AND message_id = $2', [alice.id, messageId]);
    assert.deepEqual(rows, [{ from_address: '', from_name: '' }]);
  });

  test('a recipient in a domain no office owns is refused at RCPT (550 5.7.1): the listener never relays', async () => {
    await assert.rejects(
      smtp.sendMail({ envelope: { from: 'a@example.org', to: ['someone@elsewhere.example'] }, raw: 'From: a@example.org\r\nSubject: relay?\r\n\r\nno\r\n' }),
      (error: { responseCode?: number; response?: string; rejected?: string[] }) => {
        assert.equal(error.responseCode, 550);
        assert.match(error.response ?? '', /5\.7\.1 <someone@elsewhere\.example>: relaying denied/);
        return true;
      },
    );
  });

  test("an unknown address in an office's domain is refused at RCPT (550 5.1.1)", async () => {
    const ghost = `ghost@${alice.domain}`;
    await assert.rejects(
      smtp.sendMail({ envelope: { from: 'a@example.org', to: [ghost] }, raw: 'From: a@example.org\r\nSubject: anyone?\r\n\r\nno\r\n' }),
      (error: { responseCode?: number; response?: string }) => {
        assert.equal(error.responseCode, 550);
        assert.ok(error.response?.includes(`5.1.1 <${ghost}>: no such user here`), error.response);
        return true;
      },
    );
  });

  test('a session trying address after address is slowed after three unknown ones and closed (421) at the tenth', async () => {
    const replies = await smtpConversation(ingest.smtpPort, [
      'EHLO harvester.example',
      'MAIL FROM:<a@example.org>',
      ...Array.from({ length: 12 }, (_, index) => `RCPT TO:<guess${index}@${alice.domain}>`),
    ]);
    const rcptReplies = replies.slice(2);
    assert.deepEqual(
      rcptReplies.map((reply) => reply.slice(0, 3)),
      [...Array(9).fill('550'), '421'],
      'nine refusals, then the session ends: the last two RCPTs get no answer',
    );
    assert.match(rcptReplies[9], /too many unknown recipients/);
  });

  test('with one known and one unknown recipient, only the known one is accepted and receives it', async () => {
    const messageId = `<mixed-${randomUUID()}@example.org>`;
    const info = await smtp.sendMail({
      envelope: { from: 'a@example.org', to: [alice.email, 'ghost@elsewhere.example'] },
      raw: `From: a@example.org\r\nTo: ${alice.email}\r\nMessage-ID: ${messageId}\r\nSubject: mixed\r\n\r\nhello\r\n`,
    });
    assert.deepEqual(info.accepted, [alice.email]);
    assert.deepEqual(info.rejected, ['ghost@elsewhere.example']);
    await waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(messageId) === 1, { what: 'the accepted copy' });
  });

  test('a message over the size limit is refused with 552 and not stored', async () => {
    const before = await inboxOf(db, alice.id);
    const raw = `From: a@example.org\r\nTo: ${alice.email}\r\nSubject: big\r\n\r\n${'z'.repeat(MAX_MESSAGE_BYTES + 1024)}\r\n`;
    await assert.rejects(smtp.sendMail({ envelope: { from: 'a@example.org', to: [alice.email] }, raw }), (error: { responseCode?: number }) => {
      assert.equal(error.responseCode, 552);
      return true;
    });
    assert.equal((await inboxOf(db, alice.id)).total, before.total);
  });

  test('a body that is not a message is refused with 554', async () => {
    await assert.rejects(
      smtp.sendMail({ envelope: { from: 'a@example.org', to: [alice.email] }, raw: 'just some words, no headers at all\r\n' }),
      (error: { responseCode?: number; response?: string }) => {
        assert.equal(error.responseCode, 554);
        assert.match(error.response ?? '', /not an RFC 5322 message/);
        return true;
      },
    );
  });
});

/**
 * Sends each command in turn on one plain SMTP connection and collects the final line of
 * each reply (after the greeting), until the server closes the connection.
 */
async function smtpConversation(port: number, commands: string[]): Promise<string[]> {
  const socket = connect(port, '127.0.0.1');
  const replies: string[] = [];
  let buffered = '';
  let next = -1;
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => resolve(replies));
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n')) !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        // A multi-line reply goes on with "250-"; its last line has a space after the code.
        if (line[3] === '-') continue;
        if (next >= 0) replies.push(line);
        next += 1;
        if (next < commands.length) socket.write(`${commands[next]}\r\n`);
        else socket.end('QUIT\r\n');
      }
    });
  });
}
