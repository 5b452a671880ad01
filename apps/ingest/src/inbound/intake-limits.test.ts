import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import type { Database } from '@letterbox/db';
import { createTestUser, type RunningIngestServer, testDatabase, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

const LIMITS = {
  INGEST_SMTP_MAX_RECIPIENTS: '3',
  INGEST_SMTP_CONNECTIONS_PER_MINUTE: '6',
  INGEST_SMTP_MESSAGES_PER_MINUTE: '4',
  INGEST_HTTP_MAX_CONCURRENT_PER_CLIENT: '2',
};

describe('the intake’s limits per message and per client', () => {
  let db: Database;
  let ingest: RunningIngestServer;
  let users: TestUser[];

  before(async () => {
    // The per-minute counts restart with each minute: start early in one, so the counted tests share it.
    const leftOfMinute = 60_000 - (Date.now() % 60_000);
    if (leftOfMinute < 20_000) await new Promise((resolve) => setTimeout(resolve, leftOfMinute + 100));
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: testQueuePrefix(), ...LIMITS });
    users = await Promise.all([1, 2, 3, 4].map((index) => createTestUser(db, `limits${index}`)));
  });

  after(async () => {
    await ingest?.close();
    await db?.close();
  });

  const raw = (to: string) => `From: a@example.org\r\nTo: ${to}\r\nSubject: limits\r\n\r\nhello\r\n`;
  const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });

  test('past the most recipients of one message, SMTP answers 452 for the rest, and the message goes to the first ones', async () => {
    const smtp = transport();
    try {
      const addresses = users.map((user) => user.email);
      const info = await smtp.sendMail({ envelope: { from: 'a@example.org', to: addresses }, raw: raw(addresses.join(', ')) });
      assert.deepEqual(info.accepted, addresses.slice(0, 3));
      assert.deepEqual(info.rejected, addresses.slice(3));
      assert.match(String(info.rejectedErrors?.[0]?.response), /^452 4\.5\.3 too many recipients/);
    } finally {
      smtp.close();
    }
  });

  test('one address sending more messages, or opening more connections, than a minute allows is told to come back later', async () => {
    const answers: string[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const smtp = transport();
      try {
        await smtp.sendMail({ envelope: { from: 'a@example.org', to: [users[0].email] }, raw: raw(users[0].email) });
        answers.push('250');
      } catch (error) {
        answers.push(String((error as { responseCode?: number }).responseCode));
      } finally {
        smtp.close();
      }
    }
    // The first test's connection and message count too: 1 + 3 messages, then 451; 6 connections, then 421.
    assert.deepEqual(answers, ['250', '250', '250', '451', '451', '421', '421', '421']);
  });

  test('a gateway with more messages in progress at once than allowed gets 429 with Retry-After', async () => {
    const { url } = ingest;
    // Two uploads that have not finished: the third request finds both in progress.
    const controller = new AbortController();
    const slow = () =>
      fetch(`${url}/v2/inbound?to=${encodeURIComponent(users[0].email)}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', authorization: 'Bearer test-gateway-token-0123456789' },
        body: new ReadableStream({ start: (stream) => stream.enqueue(new TextEncoder().encode(raw(users[0].email))) }),
        duplex: 'half',
        signal: controller.signal,
      } as RequestInit).catch(() => undefined);
    const pending = [slow(), slow()];
    try {
      let answer = await ingest.post(raw(users[0].email), { to: [users[0].email] });
      for (let attempt = 0; answer.status === 202 && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        answer = await ingest.post(raw(users[0].email), { to: [users[0].email] });
      }
      assert.equal(answer.status, 429);
      assert.match(answer.body.detail ?? '', /in progress/);
    } finally {
      controller.abort();
      await Promise.all(pending);
    }
    // The aborted uploads leave their places once the intake has seen them fail.
    let after = await ingest.post(raw(users[0].email), { to: [users[0].email] });
    for (let attempt = 0; after.status === 429 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await ingest.post(raw(users[0].email), { to: [users[0].email] });
    }
    assert.equal(after.status, 202);
  });
});
