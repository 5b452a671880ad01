import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import type { DraftView } from '@letterbox/sending';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  startDeliveryWorkerProcess,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
} from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

const PROBLEM_JSON = /^application\/problem\+json/;

describe('drafts on the server', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  let db: Database;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let worker: AppProcess;
  let user: TestUser;
  let stranger: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 5, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix });
    worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port));
    user = await createTestUser(db, 'drafter');
    stranger = await createTestUser(db, 'draft-stranger');
    token = accessTokenFor(user);
  });

  after(async () => {
    await worker?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  async function call(method: string, path: string, body?: object | FormData, headers: Record<string, string> = {}, as = token) {
    const json = body !== undefined && !(body instanceof FormData);
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
    });
    const text = await response.text();
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      type: response.headers.get('content-type'),
      body: (text ? JSON.parse(text) : undefined) as DraftView & { detail?: string; id: number },
    };
  }

  const mailOf = (id: number) => db.prisma.mail.findUnique({ where: { id: BigInt(id) }, include: { attachments: true, search: { select: { body: true } } } });

  test('a draft is a mail in Drafts, searchable, and each save gives a new version as its ETag', async () => {
    const made = await call('POST', '/v2/drafts', { to: ['ann@outside.test'], subject: 'Plan', text: 'first words' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.etag, '"1"');
    assert.equal(made.body.version, 1);
    const mail = await mailOf(made.body.id);
    assert.equal(mail?.mailboxId, user.mailboxes.drafts);
    assert.equal(mail?.subject, 'Plan');
    assert.match(mail?.search?.body ?? '', /first words/);

    const saved = await call('PUT', `/v2/drafts/${made.body.id}`, { subject: 'Plan B', text: 'second words' }, { 'if-match': '"1"' });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.etag, '"2"');
    assert.deepEqual([saved.body.subject, saved.body.text, saved.body.to], ['Plan B', 'second words', ['ann@outside.test']]);
    const after = await mailOf(made.body.id);
    assert.equal(after?.subject, 'Plan B', 'the mail in Drafts is the new one');
    assert.match(after?.search?.body ?? '', /second words/);
    const read = await call('GET', `/v2/drafts/${made.body.id}`);
    assert.equal(read.etag, '"2"');
  });

  test('a save from a stale tab never overwrites the newer one: 412 on If-Match, 409 on a body version, 428 on neither', async () => {
    const made = await call('POST', '/v2/drafts', { subject: 'Race' });
    const first = await call('PUT', `/v2/drafts/${made.body.id}`, { text: 'tab one' }, { 'if-match': '"1"' });
    assert.equal(first.status, 200);
    const stale = await call('PUT', `/v2/drafts/${made.body.id}`, { text: 'tab two' }, { 'if-match': '"1"' });
    assert.equal(stale.status, 412);
    assert.match(stale.type ?? '', PROBLEM_JSON);
    assert.match(stale.body.detail ?? '', /is at version 2, not 1/);
    const staleBody = await call('PUT', `/v2/drafts/${made.body.id}`, { text: 'tab two', version: 1 });
    assert.equal(staleBody.status, 409);
    assert.equal((await call('PUT', `/v2/drafts/${made.body.id}`, { text: 'no version' })).status, 428);
    assert.equal((await call('GET', `/v2/drafts/${made.body.id}`)).body.text, 'tab one');

    const concurrent = await Promise.all(['a', 'b', 'c'].map((text) => call('PUT', `/v2/drafts/${made.body.id}`, { text }, { 'if-match': '"2"' })));
    assert.deepEqual(concurrent.map((answer) => answer.status).sort(), [200, 412, 412], 'of three saves over one version, one wins');
  });

  test('attachments are uploaded once and kept across saves until removed', async () => {
    const file = randomBytes(20_000);
    const form = new FormData();
    form.append('subject', 'With a file');
    form.append('attachments', new Blob([file], { type: 'application/pdf' }), 'plan.pdf');
    const made = await call('POST', '/v2/drafts', form);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(
      made.body.attachments.map((one) => [one.filename, one.size]),
      [['plan.pdf', 20_000]],
    );
    const saved = await call('PUT', `/v2/drafts/${made.body.id}`, { text: 'still attached' }, { 'if-match': '"1"' });
    assert.deepEqual(
      saved.body.attachments.map((one) => one.filename),
      ['plan.pdf'],
    );
    const mail = await mailOf(made.body.id);
    assert.deepEqual(
      mail?.attachments.map((one) => one.filename),
      ['plan.pdf'],
      'the draft mail lists it',
    );
    const removed = await call('PUT', `/v2/drafts/${made.body.id}`, { removeAttachments: [made.body.attachments[0].id] }, { 'if-match': '"2"' });
    assert.deepEqual(removed.body.attachments, []);
    assert.deepEqual((await mailOf(made.body.id))?.attachments, []);
  });

  test("a reply drafted on the server is in the original's conversation; sending it delivers it, flags the original and empties Drafts", async () => {
    const tag = randomUUID().slice(0, 8);
    const original = await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: user.mailboxes.inbox,
      eml: Buffer.from(
        `From: Ann <ann.${tag}@outside.test>\r\nTo: ${user.email}\r\nSubject: Offsite ${tag}\r\nMessage-ID: <offsite-${tag}@outside.test>\r\n\r\nWhere?\r\n`,
      ),
    });
    const made = await call('POST', '/v2/drafts', { original: original.id, mode: 'reply', text: 'By the lake.' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual([made.body.to, made.body.subject, made.body.threadId], [[`ann.${tag}@outside.test`], `Re: Offsite ${tag}`, original.threadId]);
    assert.deepEqual(made.body.answering, { mailId: original.id, mode: 'reply' });

    const sent = await call('POST', `/v2/drafts/${made.body.id}/send`, undefined, { 'if-match': '"1"' });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const client = new SendClient(api.url, token);
    assert.equal((await client.until(sent.body.id, ['sent', 'failed'])).status, 'sent');
    const message = mock.messages({ to: `ann.${tag}@outside.test` })[0];
    const parsed = await simpleParser(message.raw);
    assert.equal(parsed.inReplyTo, `<offsite-${tag}@outside.test>`);
    assert.equal(parsed.text?.trim(), 'By the lake.');
    assert.equal((await call('GET', `/v2/drafts/${made.body.id}`)).status, 404);
    assert.notEqual((await mailOf(made.body.id))?.deletedAt, null, 'no longer in Drafts');
    assert.equal((await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(original.id) } })).answered, true);
  });

  test("a draft is discarded; another user's draft is a 404 to every route", async () => {
    const made = await call('POST', '/v2/drafts', { subject: 'Mine' });
    const theirs = accessTokenFor(stranger);
    assert.equal((await call('GET', `/v2/drafts/${made.body.id}`, undefined, {}, theirs)).status, 404);
    assert.equal((await call('PUT', `/v2/drafts/${made.body.id}`, { text: 'x' }, { 'if-match': '"1"' }, theirs)).status, 404);
    assert.equal((await call('POST', `/v2/drafts/${made.body.id}/send`, undefined, {}, theirs)).status, 404);
    assert.equal((await call('DELETE', `/v2/drafts/${made.body.id}`, undefined, {}, theirs)).status, 404);
    assert.equal((await call('DELETE', `/v2/drafts/${made.body.id}`)).status, 204);
    assert.equal((await call('GET', `/v2/drafts/${made.body.id}`)).status, 404);
    assert.equal((await call('PUT', '/v2/drafts/1', { to: ['not an address'] }, { 'if-match': '"1"' })).status, 400);
    assert.equal((await call('POST', `/v2/drafts`, { mode: 'reply' })).status, 400);
  });
});
