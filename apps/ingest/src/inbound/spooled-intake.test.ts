import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import {
  type AppProcess,
  createTestUser,
  freePort,
  inboxOf,
  type RunningIngestServer,
  startAppProcess,
  startIngestWorkerProcess,
  TEST_INGEST_TOKEN,
  testDatabase,
  testQueuePrefix,
  waitFor,
  waitForOutput,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

const messageTo = (to: string, messageId: string) =>
  `From: news@example.org\r\nTo: ${to}\r\nSubject: spooled\r\nMessage-ID: ${messageId}\r\n\r\nhello ${randomUUID()}\r\n`;

describe('acceptances spooled together (disk storage)', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let ingest: RunningIngestServer;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix });
  });

  after(async () => {
    await ingest?.close();
    await db?.close();
  });

  test('share spool files, and a message refused among them is refused alone', async () => {
    const user = await createTestUser(db, 'spooled');
    const messageIds = Array.from({ length: 40 }, (_, index) => `<spooled-${index}@${user.domain}>`);
    const answers = await Promise.all([
      ...messageIds.map((messageId) => ingest.post(messageTo(user.email, messageId), { to: [user.email] })),
      ingest.post(`not a message ${randomUUID()}\r\n\r\ntext\r\n`, { to: [user.email] }),
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [...messageIds.map(() => 202), 422],
    );
    const { rows } = await db.sql.query<{ file: string }>(
      `SELECT payload->'spooled'->>'file' AS file FROM inbound_acceptances WHERE payload->>'inboundId' = ANY($1::text[])`,
      [answers.slice(0, -1).map((answer) => answer.body.inboundId)],
    );
    assert.equal(rows.length, messageIds.length, 'each acceptance is recorded');
    assert.ok(
      rows.every((row) => row.file),
      'with its place in the spool',
    );
    const files = new Set(rows.map((row) => row.file));
    assert.ok(files.size < messageIds.length, `${messageIds.length} messages in ${files.size} spool files: grouped`);
  });
});

describe('an ingest app killed right after acknowledging', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let app: AppProcess;
  let worker: AppProcess | undefined;

  before(async () => {
    db = testDatabase();
    const port = await freePort();
    app = startAppProcess('ingest app', 'apps/ingest/src/main.ts', {
      env: {
        QUEUE_PREFIX: queuePrefix,
        INGEST_HOST: '127.0.0.1',
        INGEST_HTTP_PORT: String(port),
        INGEST_SMTP_PORT: String(await freePort()),
        INGEST_TOKEN: TEST_INGEST_TOKEN,
      },
    });
    await waitForOutput(app, /ingest: HTTP on/);
  });

  after(async () => {
    await app?.stop('SIGKILL');
    await worker?.stop();
    await db?.close();
  });

  test('loses none of what it acknowledged: the worker stores every one from the spool', async () => {
    const user = await createTestUser(db, 'killed');
    const url = /HTTP on (http:\/\/[^/]+)/.exec(app.output())?.[1];
    assert.ok(url);
    const messageIds = Array.from({ length: 400 }, (_, index) => `<killed-${index}@${user.domain}>`);
    const acknowledged: string[] = [];
    const post = async (messageId: string) => {
      const response = await fetch(`${url}/v2/inbound?to=${encodeURIComponent(user.email)}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${TEST_INGEST_TOKEN}` },
        body: messageTo(user.email, messageId),
      }).catch(() => undefined);
      if (response?.status === 202) acknowledged.push(messageId);
    };
    // A quarter acknowledged first; then SIGKILL as the rest are sent, some written, some not. A group commit
    // acknowledges a whole group at once, so a kill after the hundredth answer could come after all of them.
    await Promise.all(messageIds.slice(0, messageIds.length / 4).map(post));
    const rest = Promise.all(messageIds.slice(messageIds.length / 4).map(post));
    await app.stop('SIGKILL');
    await rest;
    assert.ok(
      acknowledged.length >= messageIds.length / 4 && acknowledged.length < messageIds.length,
      `killed with messages in flight (${acknowledged.length} acknowledged)`,
    );

    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix });
    const inbox = await waitFor(
      async () => {
        const found = await inboxOf(db, user.id);
        return acknowledged.every((messageId) => found.messageIds.has(messageId)) ? found : undefined;
      },
      { what: `the ${acknowledged.length} acknowledged messages to be stored`, timeoutMs: 60_000 },
    );
    for (const messageId of acknowledged) assert.equal(inbox.messageIds.get(messageId), 1, `${messageId} stored once`);
  });
});
