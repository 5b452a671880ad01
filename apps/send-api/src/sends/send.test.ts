import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser, type AddressObject } from 'mailparser';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp, type ReceivedMail } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  sleep,
  startDeliveryWorkerProcess,
  startIngestWorkerProcess,
  storedSentCopy,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
} from '@letterbox/testing';
import { SentCopies } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';
import type { ProblemDetails as Problem } from '@letterbox/http';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

const PROBLEM_JSON = /^application\/problem\+json/;
const MAX_ATTACHMENT_BYTES = 256 * 1024;

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((address) => address.address ?? ''));
}

describe('send API, end to end', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let blobs: BlobStore;
  /** What the ingest worker does with a send's copy, done here where no worker runs. */
  let copies: SentCopies;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let worker: AppProcess | undefined;
  let copyWorker: AppProcess | undefined;
  let sender: TestUser;
  let stranger: TestUser;
  let client: SendClient;
  let strangerClient: SendClient;
  /** A recipient address no other test (or file) uses. */
  const recipient = (name: string) => `${name}.${randomUUID().slice(0, 8)}@recipients.test`;
  const mailsTo = (address: string): ReceivedMail[] => mock.messages({ to: address });

  /** Sends cancelled before any worker ran, checked for no delivery once one runs. */
  const cancelledEarly: Array<{ id: number; to: string }> = [];
  const idempotent: { sequential?: { id: number; to: string }; concurrent?: { id: number; to: string } } = {};

  /** An undone send's copy is a draft like any other: the drafts API opens it, and discards it. */
  async function assertDraft(mailId: number, subject: string, to: string[]): Promise<void> {
    const headers = { authorization: `Bearer ${accessTokenFor(sender)}` };
    const read = await fetch(`${api.url}/v2/drafts/${mailId}`, { headers });
    assert.equal(read.status, 200, 'the copy back in Drafts opens as a draft');
    const draft = (await read.json()) as { subject: string; to: string[]; text: string | null };
    assert.deepEqual([draft.subject, draft.to], [subject, to]);
    assert.equal(draft.text, 'never mind');
  }

  before(async () => {
    db = testDatabase();
    blobs = testBlobStore();
    copies = new SentCopies(db, blobs, queuePrefix);
    mock = await startMockSmtp({ port: 0, latencyMs: 20, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix, SEND_MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES) });
    sender = await createTestUser(db, 'sender');
    stranger = await createTestUser(db, 'stranger');
    client = new SendClient(api.url, accessTokenFor(sender));
    strangerClient = new SendClient(api.url, accessTokenFor(stranger));
  });

  after(async () => {
    await worker?.stop();
    await copyWorker?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  describe('validation', () => {
    async function expectProblem(answer: { status: number; headers: Headers; body: unknown }, status: number, field?: string) {
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.match(answer.headers.get('content-type') ?? '', PROBLEM_JSON);
      const problem = answer.body as Problem;
      assert.equal(problem.status, status);
      if (field) {
        assert.ok(
          problem.errors?.some((error) => error.field === field),
          `expected an error on ${field}, got ${JSON.stringify(problem.errors)}`,
        );
      }
      return problem;
    }

    test('a bad address is named by its place: body.to.0', async () => {
      await expectProblem(await client.send({ to: ['not-an-address'], subject: 'x', text: 'x' }), 400, 'body.to.0');
      await expectProblem(await client.send({ to: [recipient('ok')], cc: ['ok@x.test', 'nope'], text: 'x' }), 400, 'body.cc.1');
    });

    test('no recipient at all is refused on body.to', async () => {
      await expectProblem(await client.send({ subject: 'nobody', text: 'x' }), 400, 'body.to');
      await expectProblem(await client.send({ to: [], cc: [], bcc: [], text: 'x' }), 400, 'body.to');
    });

    test('more than 100 recipients are refused, in one field or across to, cc and bcc', async () => {
      const many = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}@many.test`);
      await expectProblem(await client.send({ to: many(101, 'to'), text: 'x' }), 400, 'body.to');
      await expectProblem(await client.send({ to: many(60, 'to'), cc: many(30, 'cc'), bcc: many(11, 'bcc'), text: 'x' }), 400, 'body.to');
    });

    test('an unknown field is named', async () => {
      await expectProblem(await client.send({ to: [recipient('u')], text: 'x', sneaky: true }), 400, 'body.sneaky');
    });

    test('a read receipt needs the Sent copy', async () => {
      await expectProblem(await client.send({ to: [recipient('r')], text: 'x', requestReadReceipt: true, saveCopy: false }), 400, 'body.requestReadReceipt');
    });

    test('text PostgreSQL cannot store (NUL, a lone surrogate) is refused on its field', async () => {
      await expectProblem(await client.send({ to: [recipient('n')], subject: 'a\u0000b', text: 'x' }), 400, 'body.subject');
      await expectProblem(await client.send({ to: [recipient('n')], text: 'a\u0000b' }), 400, 'body.text');
      await expectProblem(await client.send({ to: [recipient('n')], html: 'a\ud800b' }), 400, 'body.html');
    });

    test('malformed JSON is a 400 on body', async () => {
      await expectProblem(await client.send('{"to": ["a@b.test"], '), 400, 'body');
    });

    test('without a token the answer is 401, and nothing is recorded', async () => {
      const to = recipient('anon');
      const problem = await expectProblem(await client.as(undefined).send({ to: [to], text: 'x' }), 401);
      assert.match(problem.detail, /token/);
      await expectProblem(await client.as('forged.token').send({ to: [to], text: 'x' }), 401);
      assert.equal(await sendsTo(to), 0);
    });

    test('an attachment over the limit is a 413 naming attachments', async () => {
      const to = recipient('big');
      const tooBig = await client.sendMultipart({ to }, [
        { filename: 'big.bin', contentType: 'application/octet-stream', content: randomBytes(MAX_ATTACHMENT_BYTES + 1024) },
      ]);
      await expectProblem(tooBig, 413, 'attachments');
      // Each file under the limit, together over it.
      const half = () => ({ filename: 'half.bin', contentType: 'application/octet-stream', content: randomBytes(MAX_ATTACHMENT_BYTES / 2 + 1024) });
      await expectProblem(await client.sendMultipart({ to }, [half(), half()]), 413, 'attachments');
      assert.equal(await sendsTo(to), 0);
    });

    test('a bad Idempotency-Key header is named', async () => {
      await expectProblem(await client.send({ to: [recipient('k')], text: 'x' }, { 'idempotency-key': 'x'.repeat(201) }), 400, 'header.idempotency-key');
    });
  });

  test('the queue dashboard needs its credentials', async () => {
    const without = await fetch(`${api.url}/admin/queues`);
    assert.equal(without.status, 401);
    assert.match(without.headers.get('www-authenticate') ?? '', /^Basic /);
    await without.arrayBuffer();
    const wrong = await fetch(`${api.url}/admin/queues`, { headers: { authorization: `Basic ${Buffer.from('admin:wrong-password').toString('base64')}` } });
    assert.equal(wrong.status, 401);
    await wrong.arrayBuffer();
    const signedIn = await fetch(`${api.url}/admin/queues`, { headers: { authorization: `Basic ${Buffer.from('admin:letterbox-admin').toString('base64')}` } });
    assert.equal(signedIn.status, 200);
    assert.match(await signedIn.text(), /<html/i);
  });

  describe('before any worker runs', () => {
    test('POST answers 202 at once, with Location and status queued', async () => {
      const to = recipient('first');
      const answer = await client.send({ to: [to], subject: 'Queued', text: 'hello' });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      assert.equal(answer.body.status, 'queued');
      assert.equal(answer.headers.get('location'), `/v2/mails/send/${answer.body.id}`);
      assert.equal(answer.body.statusUrl, `/v2/mails/send/${answer.body.id}`);
      assert.equal(answer.body.startedAt, null);
      assert.equal(answer.body.sentAt, null);
      assert.equal((await client.current(answer.body.id)).status, 'queued');
    });

    test('another user’s send is 404 to GET and to cancel, and stays untouched', async () => {
      const answer = await client.send({ to: [recipient('private')], text: 'mine' });
      assert.equal(answer.status, 202);
      const read = await strangerClient.status<Problem>(answer.body.id);
      assert.equal(read.status, 404);
      assert.match(read.headers.get('content-type') ?? '', PROBLEM_JSON);
      const cancel = await strangerClient.cancel<Problem>(answer.body.id);
      assert.equal(cancel.status, 404);
      // Exactly what a send that does not exist answers.
      const missing = await strangerClient.status<Problem>(Number.MAX_SAFE_INTEGER);
      assert.equal(missing.status, 404);
      assert.equal((await client.current(answer.body.id)).status, 'queued');
    });

    test('cancel before delivery: cancelled, the Sent copy back in Drafts, cancelling again is harmless', async () => {
      const to = recipient('undo');
      const answer = await client.send({ to: [to], subject: 'Undo me', text: 'never mind' });
      assert.equal(answer.status, 202);
      const mailId = answer.body.sentMailId;
      assert.ok(mailId, 'a Sent copy was kept');
      await copies.store([answer.body.id]);
      assert.equal(await mailboxOf(mailId), sender.mailboxes.sent);
      const cancelled = await client.cancel(answer.body.id);
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal(cancelled.body.status, 'cancelled');
      assert.equal((await client.current(answer.body.id)).status, 'cancelled');
      assert.equal(await mailboxOf(mailId), sender.mailboxes.drafts);
      await assertDraft(mailId, 'Undo me', [to]);
      const again = await client.cancel(answer.body.id);
      assert.equal(again.status, 200);
      assert.equal(again.body.status, 'cancelled');
      cancelledEarly.push({ id: answer.body.id, to });
    });

    test('scheduled sends are listed, soonest first, with subject and recipients, until cancelled; sends going at once and other users’ are not', async () => {
      const later = new Date(Date.now() + 3 * 3600_000).toISOString();
      const sooner = new Date(Date.now() + 2 * 3600_000).toISOString();
      const first = await client.send({ to: [recipient('later')], subject: 'Goes later', text: 'later', sendAt: later });
      const second = await client.send({ to: [recipient('sooner')], cc: [recipient('copy')], subject: 'Goes sooner', text: 'sooner', sendAt: sooner });
      const now = await client.send({ to: [recipient('now')], subject: 'Goes now', text: 'now' });
      assert.deepEqual([first.status, second.status, now.status], [202, 202, 202]);
      const listed = await client.scheduled();
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const mine = listed.body.items.filter((item) => [first.body.id, second.body.id, now.body.id].includes(item.id));
      assert.deepEqual(
        mine.map((item) => [item.id, item.subject, item.scheduledAt, item.to.length]),
        [
          [second.body.id, 'Goes sooner', sooner, 2],
          [first.body.id, 'Goes later', later, 1],
        ],
      );
      assert.equal((await strangerClient.scheduled()).body.items.length, 0);
      for (const id of [first.body.id, second.body.id]) assert.equal((await client.cancel(id)).status, 200);
      const after = (await client.scheduled()).body.items.map((item) => item.id);
      assert.ok(!after.includes(first.body.id) && !after.includes(second.body.id), 'cancelled sends leave the list');
    });

    test('cancel before the Sent copy is stored: the copy, stored afterwards, goes to Drafts', async () => {
      const to = recipient('undo-early');
      const answer = await client.send({ to: [to], subject: 'Undone at once', text: 'never mind' });
      assert.equal(answer.status, 202);
      assert.equal(await db.prisma.mail.count({ where: { id: BigInt(answer.body.sentMailId ?? 0) } }), 0, 'the request stores no copy');
      assert.equal((await client.cancel(answer.body.id)).status, 200);
      await copies.store([answer.body.id]);
      assert.equal(await mailboxOf(answer.body.sentMailId ?? 0), sender.mailboxes.drafts);
      await assertDraft(answer.body.sentMailId ?? 0, 'Undone at once', [to]);
      cancelledEarly.push({ id: answer.body.id, to });
    });

    test('the same Idempotency-Key twice in a row gives one send with the same id', async () => {
      const to = recipient('idem');
      const key = `idem-${randomUUID()}`;
      const first = await client.send({ to: [to], subject: 'Once', text: 'once' }, { 'idempotency-key': key });
      const second = await client.send({ to: [to], subject: 'Once', text: 'once' }, { 'idempotency-key': key });
      assert.equal(first.status, 202);
      assert.equal(second.status, 202);
      assert.equal(second.body.id, first.body.id);
      assert.equal(await sendsTo(to), 1);
      assert.equal(await sentCopiesFor(first.body.id, 'Once'), 1);
      idempotent.sequential = { id: first.body.id, to };
    });

    test('an Idempotency-Key reused for a different send is a 422 naming the header', async () => {
      const key = `reused-${randomUUID()}`;
      const first = await client.send({ to: [recipient('reuse')], subject: 'First', text: 'first' }, { 'idempotency-key': key });
      assert.equal(first.status, 202);
      const other = await client.send({ to: [recipient('reuse')], subject: 'Something else', text: 'other' }, { 'idempotency-key': key });
      assert.equal(other.status, 422);
      assert.match((other.body as unknown as { detail: string }).detail, /^header\.idempotency-key: /);
    });

    test('the same Idempotency-Key in concurrent requests gives one send with the same id', async () => {
      const to = recipient('idem-race');
      const key = `race-${randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => client.send({ to: [to], subject: 'Raced', text: 'raced' }, { 'idempotency-key': key })),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        answers.map(() => 202),
        JSON.stringify(answers.map((answer) => answer.body)),
      );
      assert.equal(new Set(answers.map((answer) => answer.body.id)).size, 1);
      assert.equal(await sendsTo(to), 1);
      assert.equal(await sentCopiesFor(answers[0].body.id, 'Raced'), 1, 'one Sent copy, the one send’s');
      idempotent.concurrent = { id: answers[0].body.id, to };
    });
  });

  describe('with a worker running', () => {
    before(async () => {
      worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port));
      copyWorker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' });
    });

    test('a JSON send is delivered once, with its From, To and Subject, and the status says sent', async () => {
      const to = recipient('json');
      const subject = `JSON send ${randomUUID()}`;
      const answer = await client.send({ to: [to], subject, text: 'Hello over JSON.' });
      assert.equal(answer.status, 202);
      const sent = await client.until(answer.body.id, ['sent', 'failed']);
      assert.equal(sent.status, 'sent', JSON.stringify(sent));
      assert.ok(sent.startedAt && sent.sentAt, 'startedAt and sentAt are set');
      assert.ok(Date.parse(sent.startedAt) <= Date.parse(sent.sentAt));
      assert.equal(sent.attempts, 1);
      assert.equal(sent.lastError, null);
      const delivered = mailsTo(to);
      assert.equal(delivered.length, 1);
      assert.match(delivered[0].envelope.from, new RegExp(`^bounces\\+[0-9a-z.]+@${sender.domain.replaceAll('.', '\\.')}$`), 'from the send’s bounce address');
      assert.deepEqual(delivered[0].envelope.to, [to]);
      const parsed = await simpleParser(delivered[0].raw);
      assert.deepEqual(addresses(parsed.from), [sender.email]);
      assert.equal(parsed.from?.value[0].name, 'Test sender');
      assert.deepEqual(addresses(parsed.to), [to]);
      assert.equal(parsed.subject, subject);
      assert.equal(parsed.text?.trim(), 'Hello over JSON.');
      // The Sent copy carries the same identity as what was delivered.
      const copy = await storedSentCopy(db, sent.sentMailId);
      assert.equal(copy.mailboxId, sender.mailboxes.sent);
      assert.equal(copy.subject, subject);
      assert.equal(copy.messageId, parsed.messageId);
    });

    test('a multipart send with two attachments is delivered with both, byte for byte, and its Sent copy lists them', async () => {
      const to = recipient('files');
      const subject = `Files ${randomUUID()}`;
      const files = [
        { filename: 'report.pdf', contentType: 'application/pdf', content: randomBytes(70_000) },
        { filename: 'notes été.txt', contentType: 'text/plain', content: Buffer.from('line one\r\nline two, ünïcödé\n'.repeat(50)) },
      ];
      const answer = await client.sendMultipart({ to, cc: recipient('files-cc'), subject, text: 'Two files attached.' }, files);
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      assert.equal(answer.headers.get('location'), `/v2/mails/send/${answer.body.id}`);
      const sent = await client.until(answer.body.id, ['sent', 'failed']);
      assert.equal(sent.status, 'sent', JSON.stringify(sent));
      const delivered = mailsTo(to);
      assert.equal(delivered.length, 1);
      assert.equal(delivered[0].envelope.to.length, 2, 'to and cc in one message');
      const parsed = await simpleParser(delivered[0].raw);
      assert.equal(parsed.subject, subject);
      assert.equal(parsed.attachments.length, 2);
      for (const file of files) {
        const attachment = parsed.attachments.find((one) => one.filename === file.filename);
        assert.ok(attachment, `${file.filename} delivered (got ${parsed.attachments.map((one) => one.filename).join(', ')})`);
        assert.equal(attachment.contentType, file.contentType);
        assert.ok(attachment.content.equals(file.content), `${file.filename} is byte-identical`);
      }
      const copy = await storedSentCopy(db, sent.sentMailId);
      assert.equal(copy.userId, sender.id);
      assert.equal(copy.mailboxId, sender.mailboxes.sent);
      assert.equal(copy.hasAttachments, true);
      assert.deepEqual(
        copy.attachments
          .map((one) => ({ filename: one.filename, contentType: one.contentType, size: one.size }))
          .sort((a, b) => a.filename.localeCompare(b.filename)),
        files
          .map((file) => ({ filename: file.filename, contentType: file.contentType, size: file.content.length }))
          .sort((a, b) => a.filename.localeCompare(b.filename)),
      );
      // The stored EML holds the same bytes.
      const stored = await simpleParser(await readBlob(copy.storageKey));
      for (const file of files) assert.ok(stored.attachments.find((one) => one.filename === file.filename)?.content.equals(file.content));
    });

    test('a send cancelled before any worker ran is never delivered', async () => {
      assert.ok(cancelledEarly.length > 0);
      // Long enough for the worker and two outbox sweeps to have had it, had they wanted it.
      await sleep(3000);
      for (const { id, to } of cancelledEarly) {
        assert.equal((await client.current(id)).status, 'cancelled');
        assert.deepEqual(mailsTo(to), []);
      }
    });

    test('idempotent retries were delivered once each', async () => {
      for (const { id, to } of [idempotent.sequential, idempotent.concurrent].filter((one) => one !== undefined)) {
        assert.equal((await client.until(id, ['sent', 'failed'])).status, 'sent');
        await sleep(300);
        assert.equal(mailsTo(to).length, 1, `${to} got one message`);
      }
      assert.ok(idempotent.sequential && idempotent.concurrent, 'both idempotency tests ran');
    });

    test('a retry with the same Idempotency-Key after delivery answers the first send and sends nothing', async () => {
      const to = recipient('idem-after');
      const key = `after-${randomUUID()}`;
      const first = await client.send({ to: [to], text: 'once' }, { 'idempotency-key': key });
      await client.until(first.body.id, ['sent']);
      const retry = await client.send({ to: [to], text: 'once' }, { 'idempotency-key': key });
      assert.equal(retry.status, 202);
      assert.equal(retry.body.id, first.body.id);
      assert.equal(retry.body.status, 'sent');
      await sleep(1000);
      assert.equal(mailsTo(to).length, 1);
      assert.equal(await sendsTo(to), 1);
    });

    test('cancelling a sent send is a 409 conflict', async () => {
      const answer = await client.send({ to: [recipient('late')], text: 'too late' });
      await client.until(answer.body.id, ['sent']);
      const cancel = await client.cancel<Problem>(answer.body.id);
      assert.equal(cancel.status, 409);
      assert.match(cancel.headers.get('content-type') ?? '', PROBLEM_JSON);
      assert.match(cancel.body.detail, /sent/);
      assert.equal((await client.current(answer.body.id)).status, 'sent');
    });

    test('sendAt in the future: not delivered before, delivered after', async () => {
      const to = recipient('later');
      const sendAt = new Date(Date.now() + 4000);
      const answer = await client.send({ to: [to], text: 'scheduled', sendAt: sendAt.toISOString() });
      assert.equal(answer.status, 202);
      assert.equal(answer.body.scheduledAt, sendAt.toISOString());
      await sleep(2000);
      assert.equal((await client.current(answer.body.id)).status, 'queued');
      assert.deepEqual(mailsTo(to), []);
      const sent = await client.until(answer.body.id, ['sent', 'failed']);
      assert.equal(sent.status, 'sent');
      const delivered = mailsTo(to);
      assert.equal(delivered.length, 1);
      assert.ok(delivered[0].acceptedAt >= sendAt.getTime() - 50, `accepted ${delivered[0].acceptedAt - sendAt.getTime()} ms from sendAt`);
      assert.ok(Date.parse(sent.startedAt ?? '') >= sendAt.getTime() - 50);
    });

    test('a scheduled send cancelled while a worker runs is never delivered', async () => {
      const to = recipient('scheduled-undo');
      const answer = await client.send({ to: [to], text: 'scheduled', sendAt: new Date(Date.now() + 1500).toISOString() });
      const cancelled = await client.cancel(answer.body.id);
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.body.status, 'cancelled');
      assert.equal((await storedSentCopy(db, answer.body.sentMailId)).mailboxId, sender.mailboxes.drafts);
      await sleep(3000);
      assert.equal((await client.current(answer.body.id)).status, 'cancelled');
      assert.deepEqual(mailsTo(to), []);
    });
  });

  async function sendsTo(address: string): Promise<number> {
    const { rows } = await db.sql.query<{ count: string }>(`SELECT count(*) FROM outbound_sends WHERE user_id = $1 AND request->'to' ? $2`, [
      sender.id,
      address,
    ]);
    return Number(rows[0].count);
  }

  /** The user's mails with this subject, once the send's copy is stored as the worker stores it. */
  async function sentCopiesFor(sendId: number, subject: string): Promise<number> {
    await copies.store([sendId]);
    return db.prisma.mail.count({ where: { userId: sender.id, subject } });
  }

  async function mailboxOf(mailId: number): Promise<number> {
    return (await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) }, select: { mailboxId: true } })).mailboxId;
  }

  async function readBlob(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of blobs.createReadStream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
});
