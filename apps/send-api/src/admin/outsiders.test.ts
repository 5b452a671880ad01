import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testQueuePrefix } from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

const WEBMAIL = 'http://127.0.0.1:8080';
const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

describe('what a page of another site, or a guesser, gets from the send API', () => {
  let api: RunningSendApi;

  before(async () => {
    api = await startSendApiServer({ QUEUE_PREFIX: testQueuePrefix(), SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3', CORS_ORIGINS: WEBMAIL });
  });

  after(async () => {
    await api?.close();
  });

  const preflight = (path: string, origin: string) =>
    fetch(`${api.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });

  test('CORS answers the configured origins only, never with credentials, and never for the dashboard', async () => {
    const allowed = await preflight('/v2/mails/send', WEBMAIL);
    assert.equal(allowed.headers.get('access-control-allow-origin'), WEBMAIL);
    assert.equal(allowed.headers.get('access-control-allow-credentials'), null);
    for (const [path, origin] of [
      ['/v2/mails/send', 'https://evil.example'],
      ['/admin/queues', WEBMAIL],
      ['/admin/queues/api/queues', 'https://evil.example'],
    ]) {
      const answer = await preflight(path, origin);
      assert.equal(answer.headers.get('access-control-allow-origin'), null, `${path} from ${origin}`);
      assert.equal(answer.headers.get('access-control-allow-credentials'), null, `${path} from ${origin}`);
    }
    const read = await fetch(`${api.url}/admin/queues/api/queues`, {
      headers: { origin: 'https://evil.example', authorization: basic('admin:letterbox-admin') },
    });
    assert.equal(read.headers.get('access-control-allow-origin'), null);
  });

  test('the dashboard’s Basic sign-in takes a few wrong passwords, then 429 with Retry-After, even for the right one', async () => {
    for (const guess of ['one', 'two', 'three']) {
      const answer = await fetch(`${api.url}/admin/queues`, {
        headers: { authorization: basic(`admin:${guess}`), 'x-forwarded-for': `198.51.100.${guess.length}` },
      });
      assert.equal(answer.status, 401);
      await answer.arrayBuffer();
    }
    const limited = await fetch(`${api.url}/admin/queues`, { headers: { authorization: basic('admin:letterbox-admin') } });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.match(limited.headers.get('content-type') ?? '', /^application\/problem\+json/);
    await limited.arrayBuffer();
  });
});
