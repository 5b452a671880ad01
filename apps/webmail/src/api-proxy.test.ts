import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createApiProxy, isApiPath, upstreamFor } from './api-proxy';

const listen = (server: http.Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

describe('the API proxy', () => {
  const upload = randomBytes(3 * 1024 * 1024 + 17);
  let releaseStream: () => void = () => undefined;
  const readApi = http.createServer((request, response) => {
    if (request.url?.startsWith('/v2/events')) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write('id: 1\nevent: mail.created\ndata: {"mailId":1,"mailboxId":2}\n\n');
      // The stream stays open: the proxy must pass the first event on before it ends.
      releaseStream = () => response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'read' });
    response.end(JSON.stringify({ url: request.url, authorization: request.headers.authorization ?? null }));
  });
  const sendApi = http.createServer((request, response) => {
    const hash = createHash('sha256');
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      hash.update(chunk);
    });
    request.on('end', () => {
      response.writeHead(202, { 'content-type': 'application/json', 'x-upstream': 'send', connection: 'close' });
      response.end(JSON.stringify({ url: request.url, size, sha256: hash.digest('hex') }));
    });
  });
  let proxyServer: http.Server;
  let proxy: ReturnType<typeof createApiProxy>;
  let url: string;

  before(async () => {
    proxy = createApiProxy({ readApi: new URL(await listen(readApi)), sendApi: new URL(await listen(sendApi)) });
    proxyServer = http.createServer(proxy.handle);
    url = await listen(proxyServer);
  });

  after(async () => {
    releaseStream();
    proxy.close();
    proxyServer.closeAllConnections();
    await Promise.all([proxyServer, readApi, sendApi].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  test('routes /v2/mails/send and below to the send API, the rest of /v2 to the read API', () => {
    const upstreams = { readApi: new URL('http://read'), sendApi: new URL('http://send') };
    assert.equal(upstreamFor('/v2/mails/send', upstreams).host, 'send');
    assert.equal(upstreamFor('/v2/mails/send/12/cancel', upstreams).host, 'send');
    assert.equal(upstreamFor('/v2/mails/sender', upstreams).host, 'read');
    assert.equal(upstreamFor('/v2/mails?limit=5', upstreams).host, 'read');
    assert.ok(isApiPath('/v2/events?access_token=x'));
    assert.ok(!isApiPath('/v2x'));
    assert.ok(!isApiPath('/assets/index.js'));
  });

  test('passes the query and the authorization header through', async () => {
    const response = await fetch(`${url}/v2/mails?limit=5&with=attachments`, { headers: { authorization: 'Bearer abc' } });
    assert.equal(response.headers.get('x-upstream'), 'read');
    assert.deepEqual(await response.json(), { url: '/v2/mails?limit=5&with=attachments', authorization: 'Bearer abc' });
  });

  test('streams a multi-megabyte upload to the send API unchanged, and drops hop-by-hop headers', async () => {
    const response = await fetch(`${url}/v2/mails/send`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(upload) });
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('x-upstream'), 'send');
    assert.notEqual(response.headers.get('connection'), 'close');
    const body = (await response.json()) as { size: number; sha256: string };
    assert.equal(body.size, upload.length);
    assert.equal(body.sha256, createHash('sha256').update(upload).digest('hex'));
  });

  test('an SSE event reaches the browser while the stream is still open', async () => {
    const controller = new AbortController();
    const response = await fetch(`${url}/v2/events?access_token=t`, { signal: controller.signal });
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('\n\n')) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'the stream ended before the first event arrived');
      text += Buffer.from(value).toString();
    }
    assert.match(text, /event: mail\.created\ndata: \{"mailId":1,"mailboxId":2\}/);
    controller.abort();
  });

  test('an API that is down is a 502 problem', async () => {
    const down = createApiProxy({ readApi: new URL('http://127.0.0.1:9'), sendApi: new URL('http://127.0.0.1:9') });
    const server = http.createServer(down.handle);
    const downUrl = await listen(server);
    try {
      const response = await fetch(`${downUrl}/v2/mailboxes`);
      assert.equal(response.status, 502);
      assert.match(response.headers.get('content-type') ?? '', /problem\+json/);
    } finally {
      down.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
