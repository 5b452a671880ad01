import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  freePort,
  sleep,
  startAppProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
  waitForHttp,
} from '@letterbox/testing';

describe('an upload the client abandons', () => {
  let db: Database;
  let api: AppProcess;
  let url: string;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = startAppProcess('send API', 'apps/send-api/src/main.ts', {
      env: { SEND_API_PORT: String(port), SEND_API_HOST: '127.0.0.1', QUEUE_PREFIX: testQueuePrefix() },
    });
    await waitForHttp(api, `${url}/health/live`);
    user = await createTestUser(db, 'abandoner');
  });

  after(async () => {
    await api?.stop();
    await db?.close();
  });

  test('is an info line that says the client went away, not an error', async () => {
    const boundary = 'abandoned-upload';
    const request = http.request(`${url}/v2/mails/send`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessTokenFor(user)}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(10 * 1024 * 1024),
      },
    });
    request.on('error', () => undefined);
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="to"\r\n\r\nsomeone@recipients.test\r\n`);
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    request.write(Buffer.alloc(256 * 1024, 1));
    await sleep(300);
    request.destroy();
    const lines = () =>
      api
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
    await waitFor(() => lines().some((line) => line.includes('the client went away')), { what: 'the line about the abandoned upload' });
    const errors = lines().filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    assert.deepEqual(errors, []);
  });
});
