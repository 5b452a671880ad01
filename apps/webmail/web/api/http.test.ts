import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';

let http: typeof import('./http');
let server: Server;
let base: string;
let release: () => void = () => undefined;

before(async () => {
  // The client's i18n reads the browser's languages and marks the page's language when it loads.
  Object.assign(globalThis, { navigator: { languages: ['en-US'] }, document: { documentElement: {} } });
  http = await import('./http');
  // Every call is refused as an expired session, when the test lets it answer.
  server = createServer((_request, response) => {
    release = () => response.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"status":401}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  http.onSessionExpired(null);
  http.setAccessToken(null);
  server.close();
});

/** A call's failure, after `meanwhile` ran between the call leaving and its 401 coming back. */
async function refusedAfter(meanwhile: () => void): Promise<unknown> {
  const call = http.request(`${base}/v2/mails/bulk/7`).catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 50));
  meanwhile();
  release();
  return call;
}

test('a 401 ends the session only when it answers a call made with the token signed in now', async () => {
  let expired = 0;
  http.onSessionExpired(() => expired++);

  http.setAccessToken('old');
  assert.ok((await refusedAfter(() => http.setAccessToken('new'))) instanceof http.SessionExpiredError);
  assert.equal(expired, 0, 'a call made before signing in again');

  http.setAccessToken(null);
  assert.ok((await refusedAfter(() => http.setAccessToken('newer'))) instanceof http.SessionExpiredError);
  assert.equal(expired, 0, 'a call made while signed out');

  assert.ok((await refusedAfter(() => undefined)) instanceof http.SessionExpiredError);
  assert.equal(expired, 1, 'a call of the session signed in now');
});
