import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { startMockProvidersHttp } from './mock-providers-http';
import { startMockSmtp, type MockSmtp } from './mock-smtp';
import type { AccountCounts } from './account-counters';
import type { receivedMailView } from './received-mail-view';
import { DEFAULT_SMTP_BEHAVIOUR, type SmtpBehaviour } from './smtp-behaviour';
import { failureOf, sendTestMail } from './testing/smtp-client';

let mock: MockSmtp;
let http: FastifyInstance;
let base: string;

type Problem = { title: string; instance: string; errors: Array<{ field: string; message: string }> };
type MessageList = { total: number; items: Array<ReturnType<typeof receivedMailView>> };

const get = <Body>(path: string) => fetch(`${base}${path}`).then((response) => response.json() as Promise<Body>);
const fieldsOf = async (response: Response) => ((await response.json()) as Problem).errors.map((error) => error.field);
const putConfig = (body: string) => fetch(`${base}/smtp/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });

before(async () => {
  mock = await startMockSmtp({ port: 0, latencyMs: 0 });
  http = await startMockProvidersHttp(mock, { port: 0 });
  base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
});
after(() => Promise.all([http.close(), mock.close()]));
beforeEach(() => {
  mock.reset();
  mock.configure({ ...DEFAULT_SMTP_BEHAVIOUR, latencyMs: 0 });
});

test('GET /health answers ok', async () => {
  const response = await fetch(`${base}/health`);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { status: 'ok' });
});

test('PUT /smtp/config changes what the provider does and answers the whole config', async () => {
  const response = await putConfig(JSON.stringify({ permFailRate: 1 }));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ...DEFAULT_SMTP_BEHAVIOUR, latencyMs: 0, permFailRate: 1 });
  assert.equal((await failureOf(sendTestMail({ port: mock.port }))).responseCode, 550);
  assert.equal((await get<SmtpBehaviour>('/smtp/config')).permFailRate, 1);
});

test('a bad config is a 400 problem naming each field, and changes nothing', async () => {
  const response = await putConfig(JSON.stringify({ tempFailRate: 2, latencyMs: 'slow', latncy: 5 }));
  assert.equal(response.status, 400);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const problem = (await response.json()) as Problem;
  assert.equal(problem.title, 'Bad Request');
  assert.equal(problem.instance, '/smtp/config');
  assert.deepEqual(problem.errors.map((error) => error.field).sort(), ['latencyMs', 'latncy', 'tempFailRate']);
  assert.equal(mock.config().tempFailRate, 0);
});

test('a body that is not JSON, or not an object, is a problem about the body', async () => {
  for (const body of ['{"latencyMs":', '[1]']) {
    const response = await putConfig(body);
    assert.equal(response.status, 400);
    assert.deepEqual(await fieldsOf(response), ['body']);
  }
});

test('GET /smtp/messages shows envelope, account, size, TLS and headers, the EML only with raw=1', async () => {
  await sendTestMail({ port: mock.port, from: 'alice@letterbox.test', to: 'bob@example.test', subject: 'First', starttls: true });
  await sendTestMail({ port: mock.port, user: 'office-3', to: 'bob@example.test', subject: 'Second' });
  await sendTestMail({ port: mock.port, to: 'carol@example.test', subject: 'Other' });

  const list = await get<MessageList>('/smtp/messages?to=bob@example.test');
  assert.equal(list.total, 2);
  const [first, second] = list.items;
  assert.deepEqual(first.envelope, { from: 'alice@letterbox.test', to: ['bob@example.test'] });
  assert.equal(first.account, 'alice@letterbox.test');
  assert.equal(second.account, 'office-3');
  assert.match(first.tls?.protocol ?? 'in the clear', /^TLSv1\.[23]$/);
  assert.equal(second.tls, null);
  assert.ok(!Number.isNaN(Date.parse(first.acceptedAt)));
  assert.deepEqual(
    first.headers.find((header) => header.name === 'Subject'),
    { name: 'Subject', value: 'First' },
  );
  assert.equal(first.raw, undefined);

  const latest = await get<MessageList>('/smtp/messages?account=office-3&limit=1&raw=1');
  assert.equal(latest.items.length, 1);
  const raw = Buffer.from(latest.items[0].raw ?? '', 'base64');
  assert.equal(raw.length, latest.items[0].size);
  assert.match(raw.toString(), /^Subject: Second\r$/m);

  const lastOne = await get<MessageList>('/smtp/messages?limit=1');
  assert.deepEqual([lastOne.total, lastOne.items[0].envelope.to], [3, ['carol@example.test']], 'limit keeps the latest');
});

test('a bad query is a 400 problem naming the parameter', async () => {
  const response = await fetch(`${base}/smtp/messages?limit=0`);
  assert.equal(response.status, 400);
  assert.deepEqual(await fieldsOf(response), ['limit']);
});

test('GET /smtp/accounts counts outcomes per account; DELETE /smtp/messages resets', async () => {
  await sendTestMail({ port: mock.port, from: 'alice@letterbox.test' });
  mock.configure({ tempFailRate: 1 });
  await failureOf(sendTestMail({ port: mock.port, from: 'alice@letterbox.test' }));
  assert.deepEqual(await get<{ accounts: Record<string, AccountCounts> }>('/smtp/accounts'), {
    accounts: { 'alice@letterbox.test': { accepted: 1, rateLimited: 0, tempFailed: 1, permFailed: 0, dropped: 0 } },
  });

  const reset = await fetch(`${base}/smtp/messages`, { method: 'DELETE' });
  assert.equal(reset.status, 204);
  assert.deepEqual(await get('/smtp/accounts'), { accounts: {} });
  assert.deepEqual(await get('/smtp/messages'), { total: 0, items: [] });
});

test('an unknown route is a 404 problem', async () => {
  const response = await fetch(`${base}/smtp/nothing`);
  assert.equal(response.status, 404);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
});
