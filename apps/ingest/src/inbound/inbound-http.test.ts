import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailListQuery, PerUserLimit, ThreadQueries } from '@letterbox/mail';
import { referenceMail } from '@letterbox/mail-generator';
import type { JobQueues } from '@letterbox/queue';
import {
  type AppProcess,
  createTestUser,
  inboxOf,
  type RunningIngestServer,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

const BURST = 1000;

function plainMessage(to: string, messageId: string, extraHeaders = ''): string {
  return [
    'From: Newsletter <news@example.org>',
    `To: ${to}`,
    `Subject: Issue ${messageId}`,
    `Message-ID: <${messageId}@example.org>`,
    'Date: Sun, 22 Nov 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    extraHeaders,
    '',
    `Body of ${messageId}`,
    '',
  ]
    .filter((line, index) => line !== '' || index > 5)
    .join('\r\n');
}

describe('POST /v2/inbound', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let queues: JobQueues;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix, INGEST_MAX_MESSAGE_BYTES: String(64 * 1024) });
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix });
    queues = testQueues(queuePrefix);
    alice = await createTestUser(db, 'alice');
    bob = await createTestUser(db, 'bob');
  });

  after(async () => {
    await worker?.stop();
    await ingest?.close();
    await queues?.close();
    await db?.close();
  });

  test('a message for an envelope recipient is acknowledged, then stored in the inbox with its attachments and announced', async () => {
    const eml = await referenceMail('medium', {
      from: { name: 'Sender', address: 'sender@example.org' },
      to: [{ name: 'Alice', address: alice.email }],
      messageId: `<medium-${randomUUID()}@example.org>`,
    });
    const bigIngest = await startIngestServer({ QUEUE_PREFIX: queuePrefix });
    try {
      const answer = await bigIngest.post(eml, { to: [alice.email] });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.recipients, [alice.email]);
      const inbox = await waitFor(async () => ((await inboxOf(db, alice.id)).total === 1 ? inboxOf(db, alice.id) : undefined), { what: 'the stored mail' });
      assert.equal(inbox.unread, 1);
      assert.equal(inbox.messageIds.get(answer.body.messageId as string), 1);
      const { rows } = await db.sql.query<{ id: string; size: number; has_attachments: boolean; attachments: number }>(
        `SELECT m.id, m.size, m.has_attachments, (SELECT count(*)::int FROM attachments a WHERE a.mail_id = m.id) AS attachments
           FROM mails m WHERE m.user_id = $1`,
        [alice.id],
      );
      // The message as it came, behind the trace headers the intake prepends.
      assert.ok(rows[0].size > eml.length && rows[0].size < eml.length + 2000, `${rows[0].size} bytes stored of ${eml.length}`);
      assert.equal(rows[0].has_attachments, true);
      assert.ok(rows[0].attachments > 0);
      await waitFor(() => queues.has('notify-new-mail', { userId: alice.id, mailId: Number(rows[0].id), from: '', subject: '' }), {
        what: 'the notification job',
      });
    } finally {
      await bigIngest.close();
    }
  });

  test('without `to`, the Letterbox users among To, Cc and Bcc receive it; other addresses are left to their own servers', async () => {
    const id = randomUUID();
    const eml = plainMessage(`${alice.email}, someone@elsewhere.example`, id, `Cc: ${bob.email}`);
    const answer = await ingest.post(eml);
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.deepEqual([...(answer.body.recipients ?? [])].sort(), [alice.email, bob.email].sort());
    for (const user of [alice, bob]) {
      await waitFor(async () => (await inboxOf(db, user.id)).messageIds.get(`<${id}@example.org>`) === 1, { what: `${user.email}'s copy` });
    }
  });

  test(`${BURST} concurrent messages are all accepted and each stored exactly once; the same ${BURST} again store nothing new`, async () => {
    const user = await createTestUser(db, 'burst');
    const messages = Array.from({ length: BURST }, (_, index) => plainMessage(user.email, `burst-${index}-${user.domain}`));
    const first = await Promise.all(messages.map((eml) => ingest.post(eml, { to: [user.email] })));
    assert.deepEqual(
      first.filter((answer) => answer.status !== 202),
      [],
    );
    const stored = await waitFor(async () => ((await inboxOf(db, user.id)).total >= BURST ? inboxOf(db, user.id) : undefined), {
      what: `${BURST} stored mails`,
      timeoutMs: 60_000,
    });
    assert.equal(stored.total, BURST);
    assert.equal(stored.unread, BURST);
    assert.equal(stored.messageIds.size, BURST);
    assert.ok([...stored.messageIds.values()].every((copies) => copies === 1));

    const again = await Promise.all(messages.map((eml) => ingest.post(eml, { to: [user.email] })));
    assert.deepEqual(
      again.filter((answer) => answer.status !== 202),
      [],
    );
    await waitFor(async () => (await jobCounts()).active + (await jobCounts()).waiting === 0, { what: 'the second burst to be processed' });
    const afterRedelivery = await inboxOf(db, user.id);
    assert.equal(afterRedelivery.total, BURST);
    assert.equal(afterRedelivery.messageIds.size, BURST);
    const { rows } = await db.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM inbound_messages WHERE user_id = $1', [user.id]);
    assert.equal(rows[0].count, BURST);
  });

  describe('a message whose sender is unknown is stored, as other mail servers store it', () => {
    const senderless = [
      { name: 'no From header at all', from: '' },
      { name: 'a From with no address', from: 'From: undisclosed\r\n' },
    ];

    for (const { name, from } of senderless) {
      test(name, async () => {
        const user = await createTestUser(db, 'anonymous');
        const subject = `no sender ${randomUUID()}`;
        const answer = await ingest.post(`${from}To: ${user.email}\r\nSubject: ${subject}\r\n\r\nhello\r\n`);
        assert.equal(answer.status, 202, JSON.stringify(answer.body));
        await waitFor(async () => (await inboxOf(db, user.id)).total === 1, { what: 'the stored mail' });

        const reads = primaryOnly(db.sql);
        const heavyReads = new PerUserLimit({ perUser: 2, waitMs: 1000 });
        const unknown = { name: '', address: '' };
        const list = await new MailListQuery(reads, heavyReads).page(user.id, { filter: {}, order: 'desc', limit: 10 });
        assert.deepEqual(
          list.items.map((mail) => [mail.subject, mail.from]),
          [[subject, unknown]],
        );
        const threads = await new ThreadQueries(reads, heavyReads).page(user.id, { filter: {}, limit: 10 });
        assert.deepEqual(
          threads.items.map((thread) => thread.participants),
          [[unknown]],
        );
        const { rows } = await db.sql.query<{ contacts: number }>('SELECT count(*)::int AS contacts FROM contacts WHERE user_id = $1', [user.id]);
        assert.equal(rows[0].contacts, 0, 'no contact is made of an unknown sender');
      });
    }
  });

  async function jobCounts(): Promise<{ active: number; waiting: number }> {
    const queue = queues.all().find((candidate) => candidate.name === 'mail-ingest');
    const counts = await queue!.getJobCounts('active', 'waiting', 'delayed');
    return { active: counts.active, waiting: counts.waiting + counts.delayed };
  }

  describe('refusals name what is wrong, as problem+json, and accept nothing', () => {
    const valid = () => plainMessage(alice.email, randomUUID());

    const cases: Array<{
      name: string;
      send: () => Promise<{ status: number; contentType: string | null; body: { detail?: string; errors?: Array<{ field: string }> } }>;
      status: number;
      mentions: RegExp;
    }> = [
      { name: 'no gateway token', send: () => ingest.post(valid(), { token: null }), status: 401, mentions: /gateway token is required/ },
      { name: 'a wrong gateway token', send: () => ingest.post(valid(), { token: 'not-the-token-at-all' }), status: 401, mentions: /not valid/ },
      { name: 'another content type', send: () => ingest.post(valid(), { contentType: 'text/plain' }), status: 415, mentions: /text\/plain/ },
      { name: 'an empty body', send: () => ingest.post(''), status: 400, mentions: /empty/ },
      { name: 'a JSON body', send: () => ingest.post('{"subject":"hello"}', { to: [alice.email] }), status: 422, mentions: /body: not an RFC 5322 message/ },
      {
        name: 'binary bytes',
        send: () => ingest.post(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe]), { to: [alice.email] }),
        status: 422,
        mentions: /body: not an RFC 5322 message: it does not begin with a header field/,
      },
      {
        name: 'text with no header line',
        send: () => ingest.post('Hello Alice, this is just text.\r\n\r\nNo headers here.\r\n', { to: [alice.email] }),
        status: 422,
        mentions: /body: not an RFC 5322 message: it does not begin with a header field/,
      },
      {
        name: "an unknown recipient in an office's domain",
        send: () => ingest.post(valid(), { to: [alice.email, `nobody@${alice.domain}`] }),
        status: 422,
        mentions: /query\.to: no Letterbox user nobody@[0-9a-f-]+\.test$/,
      },
      {
        name: 'a recipient in a domain no office owns',
        send: () => ingest.post(valid(), { to: [alice.email, 'nobody@nowhere.test'] }),
        status: 422,
        mentions: /query\.to: not a Letterbox domain, relaying denied: nobody@nowhere\.test/,
      },
      { name: 'a `to` that is not an address', send: () => ingest.post(valid(), { to: ['not-an-address'] }), status: 400, mentions: /query\.to/ },
      {
        name: 'no Letterbox user among the headers',
        send: () => ingest.post(plainMessage('someone@elsewhere.example', randomUUID())),
        status: 422,
        mentions: /no recipient is a Letterbox user/,
      },
      {
        name: 'a message over the size limit',
        send: () => ingest.post(plainMessage(alice.email, randomUUID()) + 'x'.repeat(70 * 1024), { to: [alice.email] }),
        status: 413,
        mentions: /larger than 65536 bytes/,
      },
    ];

    for (const { name, send, status, mentions } of cases) {
      test(name, async () => {
        const before = await inboxOf(db, alice.id);
        const answer = await send();
        assert.equal(answer.status, status, JSON.stringify(answer.body));
        assert.match(answer.contentType ?? '', /^application\/problem\+json/);
        assert.match(answer.body.detail ?? '', mentions);
        assert.equal((await inboxOf(db, alice.id)).total, before.total);
      });
    }

    test('a chunked body over the size limit is refused while it streams', async () => {
      const chunks = [Buffer.from(plainMessage(alice.email, randomUUID())), Buffer.alloc(80 * 1024, 'y')];
      const response = await fetch(`${ingest.url}/v2/inbound?to=${encodeURIComponent(alice.email)}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', authorization: 'Bearer test-gateway-token-0123456789' },
        body: new ReadableStream({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      assert.equal(response.status, 413);
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    });
  });
});
