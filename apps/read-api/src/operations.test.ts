import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { freePort, startAppProcess, waitForHttp, type AppProcess } from '@letterbox/testing';

describe('the read API as main.ts runs it: metrics on its ops port, none on its public port', () => {
  let app: AppProcess;
  let publicUrl: string;
  let opsUrl: string;

  before(async () => {
    const [port, opsPort] = await Promise.all([freePort(), freePort()]);
    publicUrl = `http://127.0.0.1:${port}`;
    opsUrl = `http://127.0.0.1:${opsPort}`;
    app = startAppProcess('read-api', 'apps/read-api/src/main.ts', {
      env: {
        READ_API_PORT: String(port),
        READ_API_HOST: '127.0.0.1',
        READ_API_WORKERS: '1',
        OPS_PORT: String(opsPort),
        QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}`,
      },
    });
    await waitForHttp(app, `${publicUrl}/health/live`);
    await waitForHttp(app, `${opsUrl}/health/live`);
  });

  after(async () => {
    await app?.stop();
  });

  test('the public port answers /metrics 404, as any unknown path', async () => {
    const response = await fetch(`${publicUrl}/metrics`);
    assert.equal(response.status, 404);
    assert.doesNotMatch(await response.text(), /process_cpu_seconds_total/);
  });

  test('the ops port answers the metrics, with the public port’s request durations, and readiness', async () => {
    await (await fetch(`${publicUrl}/health/live`)).arrayBuffer();
    const metrics = await (await fetch(`${opsUrl}/metrics`)).text();
    assert.match(metrics, /process_cpu_seconds_total\{app="read-api"\}/);
    assert.match(metrics, /http_request_duration_seconds_count\{[^}]*route="\/health\/live"/);
    assert.equal((await fetch(`${opsUrl}/health/ready`)).status, 200);
  });
});
