import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oncePerInterval } from './once-per-interval';
import { startOpsServer } from './ops-server';
import { readiness } from './readiness';
import { currentRequestId, requestIdFrom, withRequestId } from './request-context';

test('a client’s request id is kept when sane; anything else gets a new one', () => {
  assert.equal(requestIdFrom('gateway-42.a:b@c'), 'gateway-42.a:b@c');
  for (const insane of [undefined, '', 'a b', 'x\r\nSet-Cookie: y', 'x'.repeat(129), ['one', 'two']]) {
    assert.match(requestIdFrom(insane), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, String(insane));
  }
});

test('work done for a request knows its id, through awaits, and nothing outside it does', async () => {
  assert.equal(currentRequestId(), undefined);
  await withRequestId('r-1', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(currentRequestId(), 'r-1');
  });
  assert.equal(currentRequestId(), undefined);
});

test('something repeating is told once, then once per interval', () => {
  const mayTell = oncePerInterval(60_000);
  assert.deepEqual([mayTell(), mayTell(), mayTell()], [true, false, false]);
});

test('readiness names what is down, never why', async () => {
  const report = await readiness({ database: async () => undefined, redis: async () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:6379')) });
  assert.equal(report.status, 'error');
  assert.deepEqual(report.info, { database: { status: 'up' } });
  assert.deepEqual(report.error, { redis: { status: 'down', message: 'redis: unavailable' } });
  assert.doesNotMatch(JSON.stringify(report), /10\.0\.0\.7|ECONNREFUSED/);
});

test('a worker’s ops listener answers health and metrics, and nothing else', async () => {
  let redisUp = true;
  const ops = await startOpsServer({
    host: '127.0.0.1',
    port: 0,
    checks: { redis: async () => (redisUp ? undefined : Promise.reject(new Error('down'))) },
  });
  const url = `http://127.0.0.1:${ops.port}`;
  try {
    assert.equal((await fetch(`${url}/health/live`)).status, 200);
    assert.equal((await fetch(`${url}/health/ready`)).status, 200);
    redisUp = false;
    const notReady = await fetch(`${url}/health/ready`);
    assert.equal(notReady.status, 503);
    assert.equal(((await notReady.json()) as { status: string }).status, 'error');
    const metrics = await fetch(`${url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await metrics.text(), /letterbox_queue_jobs/);
    assert.equal((await fetch(`${url}/admin`)).status, 404);
    assert.equal((await fetch(`${url}/health/live`, { method: 'POST' })).status, 405);
  } finally {
    await ops.close();
  }
});
