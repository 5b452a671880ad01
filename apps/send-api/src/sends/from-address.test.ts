import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Database } from '@letterbox/db';
import type { ProblemDetails as Problem } from '@letterbox/http';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import { SentCopies, type DraftView } from '@letterbox/sending';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  startDeliveryWorkerProcess,
  storedSentCopy,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
} from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

const PROBLEM_JSON = /^application\/problem\+json/;

/** The envelope sender of a send from the address: a bounce address (VERP) of the address's domain. */
const bounceAddressOf = (address: string) => new RegExp(`^bounces\\+[0-9a-z.]+@${address.slice(address.indexOf('@') + 1).replaceAll('.', '\\.')}$`);

describe('the address a send goes out from', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let worker: AppProcess;
  let copies: SentCopies;
  let sender: TestUser;
  let colleague: TestUser;
  let alias: string;
  let client: SendClient;
  const recipient = (name: string) => `${name}.${randomUUID().slice(0, 8)}@recipients.test`;

  before(async () => {
    db = testDatabase();
    copies = new SentCopies(db, testBlobStore(), queuePrefix);
    mock = await startMockSmtp({ port: 0, latencyMs: 5, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix });
    worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port));
    sender = await createTestUser(db, 'aliased');
    colleague = await createTestUser(db, 'colleague');
    // What the admin API's alias is: an addresses row of the user's (stored lower-case).
    alias = `sales@${sender.domain}`;
    await db.prisma.address.create({ data: { address: alias, officeId: sender.officeId, kind: 'alias', userId: sender.id } });
    client = new SendClient(api.url, accessTokenFor(sender));
  });

  after(async () => {
    await worker?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  async function refusedFrom(from: string) {
    const to = recipient('refused');
    const answer = await client.send<Problem>({ from, to: [to], subject: 'Not mine', text: 'x' });
    assert.equal(answer.status, 403, JSON.stringify(answer.body));
    assert.match(answer.headers.get('content-type') ?? '', PROBLEM_JSON);
    assert.equal(answer.body.status, 403);
    assert.ok(answer.body.detail.includes(from), `the problem names ${from}: ${answer.body.detail}`);
    const { rows } = await db.sql.query(`SELECT 1 FROM outbound_sends WHERE user_id = $1 AND request->'to' ? $2`, [sender.id, to]);
    assert.equal(rows.length, 0, 'no send recorded');
  }

  test('from an alias: delivered with the alias as From, a bounce address of its domain as envelope sender, the display name the user’s, the Sent copy the same', async () => {
    const to = recipient('from-alias');
    const subject = `From the alias ${randomUUID()}`;
    const answer = await client.send({ from: 'Sales@' + sender.domain.toUpperCase(), to: [to], subject, text: 'From our team address.' });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const sent = await client.until(answer.body.id, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const [delivered] = mock.messages({ to });
    assert.match(delivered.envelope.from, bounceAddressOf(alias));
    const parsed = await simpleParser(delivered.raw);
    assert.equal(parsed.from?.value[0].address, alias);
    assert.equal(parsed.from?.value[0].name, sender.displayName);
    assert.match(parsed.messageId ?? '', new RegExp(`@${sender.domain}>$`));
    await copies.store([answer.body.id]);
    const copy = await storedSentCopy(db, sent.sentMailId);
    assert.equal(copy.fromAddress, alias);
    assert.equal(copy.messageId, parsed.messageId);
  });

  test('from the primary address, named, goes out as without it', async () => {
    const to = recipient('from-primary');
    const answer = await client.send({ from: sender.email, to: [to], text: 'As ever.' });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.equal((await client.until(answer.body.id, ['sent', 'failed'])).status, 'sent');
    assert.match(mock.messages({ to })[0].envelope.from, bounceAddressOf(sender.email));
  });

  test('from an address that is not the sender’s is a 403 naming it, and nothing is recorded', async () => {
    await refusedFrom(`ceo@${sender.domain}`);
    await refusedFrom(colleague.email);
    await refusedFrom('someone@elsewhere.test');
  });

  test('a group’s address is not the sender’s to send from', async () => {
    const group = await db.prisma.group.create({ data: { officeId: sender.officeId, name: 'Support' } });
    const groupAddress = `support@${sender.domain}`;
    await db.prisma.address.create({ data: { address: groupAddress, officeId: sender.officeId, kind: 'group', groupId: group.id } });
    await refusedFrom(groupAddress);
  });

  test('a malformed from is a 400 on body.from', async () => {
    const answer = await client.send<Problem>({ from: 'not an address', to: [recipient('bad')], text: 'x' });
    assert.equal(answer.status, 400);
    assert.ok(answer.body.errors?.some((error) => error.field === 'body.from'));
  });

  describe('drafts', () => {
    async function call(method: string, path: string, body: object) {
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${accessTokenFor(sender)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as DraftView & Problem };
    }

    test('a draft keeps the alias it is from, its mail shows it, and it is sent from it', async () => {
      const to = recipient('draft-alias');
      const made = await call('POST', '/v2/drafts', { from: alias, to: [to], subject: 'Draft from the alias', text: 'x' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.from, alias);
      assert.equal((await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(made.body.id) } })).fromAddress, alias);
      const saved = await call('PUT', `/v2/drafts/${made.body.id}`, { version: 1, text: 'second words' });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.from, alias, 'a save that does not name from keeps it');
      const sent = await call('POST', `/v2/drafts/${made.body.id}/send`, {});
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      assert.equal((await client.until(sent.body.id, ['sent', 'failed'])).status, 'sent');
      assert.match(mock.messages({ to })[0].envelope.from, bounceAddressOf(alias));
    });

    test('a draft from an address not the sender’s is a 403, made or saved', async () => {
      const foreign = `boss@${sender.domain}`;
      const made = await call('POST', '/v2/drafts', { from: foreign, to: [recipient('x')] });
      assert.equal(made.status, 403, JSON.stringify(made.body));
      assert.ok(made.body.detail.includes(foreign));
      const plain = await call('POST', '/v2/drafts', { to: [recipient('y')] });
      assert.equal(plain.status, 201);
      assert.equal(plain.body.from, null);
      const saved = await call('PUT', `/v2/drafts/${plain.body.id}`, { version: 1, from: colleague.email });
      assert.equal(saved.status, 403, JSON.stringify(saved.body));
    });

    test('a draft from an alias taken away since is refused when sent, and stays a draft', async () => {
      const other = `temporary@${sender.domain}`;
      await db.prisma.address.create({ data: { address: other, officeId: sender.officeId, kind: 'alias', userId: sender.id } });
      const made = await call('POST', '/v2/drafts', { from: other, to: [recipient('gone-alias')], text: 'x' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      await db.prisma.address.delete({ where: { address: other } });
      const sent = await call('POST', `/v2/drafts/${made.body.id}/send`, {});
      assert.equal(sent.status, 403, JSON.stringify(sent.body));
      assert.equal((await call('PUT', `/v2/drafts/${made.body.id}`, { version: 1, from: sender.email })).status, 200);
    });
  });
});
