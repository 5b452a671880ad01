import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_FCM_BEHAVIOUR, type FcmBehaviour } from './fcm-behaviour';
import type { GoogleErrorBody } from './fcm-errors';
import { startMockProvidersHttp } from './mock-providers-http';
import { createMockFcm, type MockFcm, type TokenCounts } from './mock-fcm';
import { startMockSmtp, type MockSmtp } from './mock-smtp';

let smtp: MockSmtp;
let fcm: MockFcm;
let http: FastifyInstance;
let base: string;

type Problem = { title: string; instance: string; errors: Array<{ field: string; message: string }> };
type PushList = {
  accepted: number;
  failed: number;
  tokens: Record<string, TokenCounts>;
  items: Array<{ name: string; token: string; notification?: { title?: string; body?: string }; data?: Record<string, string>; acceptedAt: string }>;
};

const FCM_ERROR_TYPE = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

const json = { 'content-type': 'application/json' };
const get = <Body>(path: string) => fetch(`${base}${path}`).then((response) => response.json() as Promise<Body>);
const putConfig = (body: unknown) => fetch(`${base}/fcm/config`, { method: 'PUT', headers: json, body: JSON.stringify(body) });

/** One message as firebase-admin posts it. */
function push(token: string, options: { project?: string; authorization?: string | null; body?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...json };
  if (options.authorization !== null) headers.authorization = options.authorization ?? 'Bearer test-access-token';
  const body =
    options.body ?? JSON.stringify({ message: { token, notification: { title: 'Alice', body: 'Lunch?' }, data: { mailId: '7', type: 'new-mail' } } });
  return fetch(`${base}/v1/projects/${options.project ?? 'letterbox-test'}/messages:send`, { method: 'POST', headers, body });
}

async function errorOf(response: Response, httpStatus: number): Promise<GoogleErrorBody['error']> {
  assert.equal(response.status, httpStatus);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const { error } = (await response.json()) as GoogleErrorBody;
  assert.equal(error.code, httpStatus);
  return error;
}

const fcmErrorCode = (error: GoogleErrorBody['error']) => error.details.find((detail) => detail['@type'] === FCM_ERROR_TYPE)?.errorCode;

before(async () => {
  smtp = await startMockSmtp({ port: 0, latencyMs: 0 });
  fcm = createMockFcm({ latencyMs: 0 });
  http = await startMockProvidersHttp(smtp, { port: 0, mockFcm: fcm });
  base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
});
after(() => Promise.all([http.close(), smtp.close()]));
beforeEach(() => {
  fcm.reset();
  fcm.configure({ ...DEFAULT_FCM_BEHAVIOUR, latencyMs: 0 });
});

test('a message to a live token is accepted with its name, recorded and counted', async () => {
  const response = await push('tok-live', { project: 'my-project' });
  assert.equal(response.status, 200);
  const { name } = (await response.json()) as { name: string };
  assert.match(name, /^projects\/my-project\/messages\/\d+$/);
  const list = await get<PushList>('/fcm/messages');
  assert.equal(list.accepted, 1);
  assert.equal(list.failed, 0);
  assert.deepEqual(list.tokens, { 'tok-live': { accepted: 1, failed: {} } });
  const [item] = list.items;
  assert.deepEqual(
    { ...item, acceptedAt: undefined },
    {
      name,
      token: 'tok-live',
      notification: { title: 'Alice', body: 'Lunch?' },
      data: { mailId: '7', type: 'new-mail' },
      acceptedAt: undefined,
    },
  );
  assert.ok(!Number.isNaN(Date.parse(item.acceptedAt)));
});

test('a dead- token is 404 UNREGISTERED and an invalid- token 400 INVALID_ARGUMENT naming message.token, in Google’s format', async () => {
  const dead = await errorOf(await push('dead-1'), 404);
  assert.equal(dead.status, 'NOT_FOUND');
  assert.equal(fcmErrorCode(dead), 'UNREGISTERED');
  const invalid = await errorOf(await push('invalid-1'), 400);
  assert.equal(invalid.status, 'INVALID_ARGUMENT');
  assert.equal(fcmErrorCode(invalid), 'INVALID_ARGUMENT');
  assert.match(invalid.message, /registration token/);
  assert.deepEqual(
    invalid.details.find((detail) => detail['@type'] === 'type.googleapis.com/google.rpc.BadRequest'),
    { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: invalid.message }] },
  );
  const list = await get<PushList>('/fcm/messages');
  assert.deepEqual(list.tokens, { 'dead-1': { accepted: 0, failed: { UNREGISTERED: 1 } }, 'invalid-1': { accepted: 0, failed: { INVALID_ARGUMENT: 1 } } });
  assert.deepEqual([list.accepted, list.failed, list.items], [0, 2, []]);
});

test('tokens set as unregistered through PUT /fcm/config stay unregistered', async () => {
  await putConfig({ unregisteredTokens: ['tok-gone'] });
  for (let attempt = 0; attempt < 2; attempt++) assert.equal(fcmErrorCode(await errorOf(await push('tok-gone'), 404)), 'UNREGISTERED');
  assert.equal((await push('tok-other')).status, 200);
});

test('failNext answers a token’s next messages with the scripted errors, one each, then accepts', async () => {
  const response = await putConfig({ failNext: { 'tok-flaky': ['UNAVAILABLE', 'QUOTA_EXCEEDED', 'INTERNAL'], 'tok-refused': ['SENDER_ID_MISMATCH'] } });
  assert.equal(response.status, 200);
  assert.equal(fcmErrorCode(await errorOf(await push('tok-flaky'), 503)), 'UNAVAILABLE');
  assert.deepEqual((await get<FcmBehaviour>('/fcm/config')).failNext, { 'tok-flaky': ['QUOTA_EXCEEDED', 'INTERNAL'], 'tok-refused': ['SENDER_ID_MISMATCH'] });
  const quota = await errorOf(await push('tok-flaky'), 429);
  assert.deepEqual([quota.status, fcmErrorCode(quota)], ['RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED']);
  assert.equal(fcmErrorCode(await errorOf(await push('tok-flaky'), 500)), 'INTERNAL');
  assert.equal((await push('tok-flaky')).status, 200);
  assert.equal(fcmErrorCode(await errorOf(await push('tok-refused'), 403)), 'SENDER_ID_MISMATCH');
  assert.equal((await push('tok-refused')).status, 200);
  assert.deepEqual((await get<FcmBehaviour>('/fcm/config')).failNext, {});
  assert.deepEqual((await get<PushList>('/fcm/messages?token=tok-flaky&limit=0')).tokens, {
    'tok-flaky': { accepted: 1, failed: { UNAVAILABLE: 1, QUOTA_EXCEEDED: 1, INTERNAL: 1 } },
  });
});

test('failure rates answer their share of every message', async () => {
  await putConfig({ unavailableRate: 1 });
  assert.equal(fcmErrorCode(await errorOf(await push('tok-a'), 503)), 'UNAVAILABLE');
  await putConfig({ unavailableRate: 0, quotaExceededRate: 1 });
  assert.equal(fcmErrorCode(await errorOf(await push('tok-a'), 429)), 'QUOTA_EXCEEDED');
  await putConfig({ quotaExceededRate: 0, internalRate: 1 });
  assert.equal(fcmErrorCode(await errorOf(await push('tok-a'), 500)), 'INTERNAL');
});

test('the answer comes after the configured latency, whatever it is', async () => {
  await putConfig({ latencyMs: 120, failNext: { 'tok-slow-fail': ['UNAVAILABLE'] } });
  for (const token of ['tok-slow', 'tok-slow-fail']) {
    const started = performance.now();
    await (await push(token)).arrayBuffer();
    assert.ok(performance.now() - started >= 115, `${token} was answered after the latency`);
  }
});

test('many messages at once are each answered and counted exactly once', async () => {
  await putConfig({ latencyMs: 20 });
  const tokens = Array.from({ length: 300 }, (_, index) => (index % 3 === 0 ? `dead-${index}` : `tok-${index}`));
  const statuses = await Promise.all(tokens.map(async (token) => (await push(token)).status));
  assert.equal(statuses.filter((status) => status === 200).length, 200);
  assert.equal(statuses.filter((status) => status === 404).length, 100);
  const list = await get<PushList>('/fcm/messages?limit=1000');
  assert.deepEqual([list.accepted, list.failed, list.items.length, Object.keys(list.tokens).length], [200, 100, 200, 300]);
  assert.equal(new Set(list.items.map((item) => item.name)).size, 200, 'every message got a name of its own');
});

test('without a bearer token the send is 401 UNAUTHENTICATED and nothing is counted', async () => {
  const error = await errorOf(await push('tok-a', { authorization: null }), 401);
  assert.equal(error.status, 'UNAUTHENTICATED');
  assert.deepEqual((await get<PushList>('/fcm/messages')).tokens, {});
});

test('a message without a token, or a body that is not JSON, is 400 INVALID_ARGUMENT in Google’s format', async () => {
  const noToken = await errorOf(await push('', { body: JSON.stringify({ message: { topic: 'news' } }) }), 400);
  assert.equal(noToken.status, 'INVALID_ARGUMENT');
  assert.match(noToken.message, /message\.token/);
  const notJson = await errorOf(await push('', { body: '{"message":' }), 400);
  assert.equal(notJson.status, 'INVALID_ARGUMENT');
  assert.match(notJson.message, /Invalid JSON payload/);
});

test('validate_only checks the message without sending or counting it', async () => {
  const response = await push('', { body: JSON.stringify({ message: { token: 'tok-dry' }, validate_only: true }) });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { name: 'projects/letterbox-test/messages/fake_message_id' });
  assert.deepEqual(await get<PushList>('/fcm/messages'), { accepted: 0, failed: 0, tokens: {}, items: [] });
});

test('PUT /fcm/config answers the whole config; a bad one is a 400 problem naming each field and changes nothing', async () => {
  const changed = await putConfig({ latencyMs: 5 });
  assert.equal(changed.status, 200);
  assert.deepEqual(await changed.json(), { ...DEFAULT_FCM_BEHAVIOUR, latencyMs: 5 });
  const response = await putConfig({ latencyMs: -1, unavailableRate: 2, failNext: { tok: ['GONE'] }, latncy: 3 });
  assert.equal(response.status, 400);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const problem = (await response.json()) as Problem;
  assert.equal(problem.instance, '/fcm/config');
  assert.deepEqual(problem.errors.map((error) => error.field).sort(), ['failNext.tok.0', 'latencyMs', 'latncy', 'unavailableRate']);
  assert.equal(fcm.config().latencyMs, 5);
});

test('GET /fcm/messages filters by token and keeps the latest; DELETE /fcm/messages resets', async () => {
  for (const token of ['tok-1', 'tok-2', 'tok-1', 'dead-3']) await push(token);
  const one = await get<PushList>('/fcm/messages?token=tok-1&limit=1');
  assert.deepEqual([one.accepted, one.failed, Object.keys(one.tokens), one.items.length], [2, 0, ['tok-1'], 1]);
  const bad = await fetch(`${base}/fcm/messages?limit=-1&tokn=x`);
  assert.equal(bad.status, 400);
  assert.deepEqual(((await bad.json()) as Problem).errors.map((error) => error.field).sort(), ['limit', 'tokn']);

  const reset = await fetch(`${base}/fcm/messages`, { method: 'DELETE' });
  assert.equal(reset.status, 204);
  assert.deepEqual(await get<PushList>('/fcm/messages'), { accepted: 0, failed: 0, tokens: {}, items: [] });
});
