import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { isApiPath, registerApiProxy, upstreamFor, type ApiProxyOptions, type ApiUpstreams } from './api-proxy';

const listen = (server: http.Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

/** The proxy alone in a Fastify of its own, as the webmail server mounts it. */
async function startProxy(upstreams: ApiUpstreams, options: ApiProxyOptions) {
  const app = Fastify({ forceCloseConnections: true });
  await registerApiProxy(app, upstreams, options);
  return { url: await app.listen({ port: 0, host: '127.0.0.1' }), close: () => app.close() };
}

describe('the API proxy', () => {
  const upload = randomBytes(3 * 1024 * 1024 + 17);
  /** Streams stay open: the proxy must pass the first event on before one ends. */
  const openStreams = new Set<http.ServerResponse>();
  const readApi = http.createServer((request, response) => {
    if (request.url?.startsWith('/v2/events')) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write('id: 1\nevent: mail.created\ndata: {"mailId":1,"mailboxId":2}\n\n');
      openStreams.add(response);
      response.once('close', () => openStreams.delete(response));
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
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let url: string;
  const limits = { maxStreams: 400, maxStreamsPerClient: 300 };

  before(async () => {
    proxy = await startProxy(
      { readApi: new URL(await listen(readApi)), sendApi: new URL(await listen(sendApi)) },
      { ...limits, logUpstreamError: () => undefined },
    );
    url = proxy.url;
  });

  /** An event stream through the proxy, as EventSource opens it; the status, and how to close it. */
  function openStream(): Promise<{ status: number; retryAfter: string | undefined; close: () => void }> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${url}/v2/events`, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] as string | undefined, close: () => request.destroy() });
      });
      request.once('error', reject);
    });
  }

  after(async () => {
    for (const stream of openStreams) stream.end();
    await proxy.close();
    await Promise.all([readApi, sendApi].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  test('routes /v2/mails/send, /v2/drafts and below to the send API, the rest of /v2 to the read API', () => {
    const upstreams = { readApi: new URL('http://read'), sendApi: new URL('http://send') };
    assert.equal(upstreamFor('/v2/mails/send', upstreams).host, 'send');
    assert.equal(upstreamFor('/v2/mails/send/12/cancel', upstreams).host, 'send');
    assert.equal(upstreamFor('/v2/mails/sender', upstreams).host, 'read');
    assert.equal(upstreamFor('/v2/drafts', upstreams).host, 'send');
    assert.equal(upstreamFor('/v2/drafts/7/send', upstreams).host, 'send');
    assert.equal(upstreamFor('/v2/draftsman', upstreams).host, 'read');
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
    const response = await fetch(`${url}/v2/mails/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(upload),
    });
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

  test('more open streams than the shared pool has sockets leave every other request answering', async () => {
    const streams = await Promise.all(Array.from({ length: 260 }, () => openStream()));
    try {
      assert.ok(streams.every((stream) => stream.status === 200));
      const response = await fetch(`${url}/v2/mails?limit=5`, { signal: AbortSignal.timeout(5000) });
      assert.equal(response.status, 200);
      const login = await fetch(`${url}/v2/auth/login`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(5000) });
      assert.equal(login.status, 200);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  test('past the streams one client address may hold, another is a 429 with Retry-After; a closed one frees its place', async () => {
    const streams = await Promise.all(Array.from({ length: limits.maxStreamsPerClient }, () => openStream()));
    try {
      const refused = await openStream();
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.retryAfter) > 0);
      streams.pop()?.close();
      for (let attempt = 0; ; attempt++) {
        const again = await openStream();
        if (again.status === 200) {
          streams.push(again);
          break;
        }
        assert.ok(attempt < 100, 'a closed stream frees its place');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  test('an API that is down is a 502 problem that names neither its address nor the error, which is logged', async () => {
    const log: string[] = [];
    const down = await startProxy(
      { readApi: new URL('http://127.0.0.1:9'), sendApi: new URL('http://127.0.0.1:9') },
      { ...limits, logUpstreamError: (message) => log.push(message) },
    );
    const downUrl = down.url;
    try {
      const response = await fetch(`${downUrl}/v2/mailboxes`);
      assert.equal(response.status, 502);
      assert.match(response.headers.get('content-type') ?? '', /problem\+json/);
      const text = await response.text();
      assert.doesNotMatch(text, /127\.0\.0\.1|ECONNREFUSED|:9\b/);
      assert.match(log.join('\n'), /127\.0\.0\.1:9.*ECONNREFUSED/);
    } finally {
      await down.close();
    }
  });
});
