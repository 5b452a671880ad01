import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { handleMailFrame, MAIL_FRAME_CONCURRENCY, MAIL_FRAME_MAX_BYTES } from './mail-frame';

describe('the mail frame', () => {
  const server = http.createServer(handleMailFrame);
  let url: string;

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mail-frame`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const form = 'application/x-www-form-urlencoded';

  test('shows the posted HTML to the webmail’s own pages', async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': form, 'sec-fetch-site': 'same-origin' }, body: 'html=%3Cp%3Ehi%3C%2Fp%3E' });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<p>hi<\/p>/);
  });

  test('the document carries the mail’s language when one is given, and refuses what is not a language tag', async () => {
    const post = (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': form, 'sec-fetch-site': 'same-origin' }, body });
    assert.match(await (await post('html=x&lang=ko-KR')).text(), /^<!doctype html><html lang="ko-KR">/);
    assert.match(await (await post('html=x')).text(), /^<!doctype html><html>/);
    const refused = await post('html=x&lang=%22%3E%3Cscript%3E');
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /lang/);
  });

  test('a post from another site, or from a client that does not say where it comes from, is refused', async () => {
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, {}] as Array<Record<string, string>>) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': form, ...headers }, body: 'html=x' });
      assert.equal(response.status, 403, JSON.stringify(headers));
      assert.match(await response.text(), /sec-fetch-site/);
    }
  });

  test('a body larger than a frame needs is a 413 before it is all read', async () => {
    assert.ok(MAIL_FRAME_MAX_BYTES <= 8 * 1024 * 1024);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': form, 'sec-fetch-site': 'same-origin' },
      body: `html=${'a'.repeat(MAIL_FRAME_MAX_BYTES)}`,
    });
    assert.equal(response.status, 413);
  });

  test('frames received at once are bounded: past them a 503 with Retry-After, and a slot frees when one ends', async () => {
    const trickling = Array.from({ length: MAIL_FRAME_CONCURRENCY }, () => {
      const request = http.request(url, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': form, 'sec-fetch-site': 'same-origin', 'content-length': 100 },
      });
      request.on('error', () => undefined);
      request.write('html=');
      return request;
    });
    const busy = async () => fetch(url, { method: 'POST', headers: { 'content-type': form, 'sec-fetch-site': 'same-origin' }, body: 'html=x' });
    // The server counts a frame when its request arrives: wait until all of them have.
    let response = await busy();
    for (let attempt = 0; response.status === 200 && attempt < 100; attempt++) response = await busy();
    assert.equal(response.status, 503);
    assert.ok(Number(response.headers.get('retry-after')) > 0);
    for (const request of trickling) request.destroy();
    for (let attempt = 0; response.status !== 200; attempt++) {
      assert.ok(attempt < 100, 'a slot frees when a frame ends');
      await new Promise((resolve) => setTimeout(resolve, 20));
      response = await busy();
    }
  });
});
