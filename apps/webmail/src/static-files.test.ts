import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createWebmailServer } from './webmail-server';

describe("the SPA's files", () => {
  const script = `console.log(${JSON.stringify('letterbox '.repeat(2000))});\n`;
  let app: FastifyInstance;
  let url: string;

  before(async () => {
    // As vite builds it: the precompressed copies beside each file (apps/webmail/precompress.mts), a hidden source map.
    const staticDir = mkdtempSync(path.join(tmpdir(), 'webmail-static-'));
    mkdirSync(path.join(staticDir, 'assets'));
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Letterbox</title>');
    writeFileSync(path.join(staticDir, 'index.html.br'), brotliCompressSync('<!doctype html><title>Letterbox</title>'));
    const file = path.join(staticDir, 'assets', 'index-abc123.js');
    writeFileSync(file, script);
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    writeFileSync(`${file}.gz`, gzipSync(script));
    writeFileSync(`${file}.map`, '{"version":3,"sources":["../../web/App.tsx"]}');
    app = await createWebmailServer({
      staticDir,
      readApiUrl: new URL('http://127.0.0.1:1'),
      sendApiUrl: new URL('http://127.0.0.1:1'),
      eventStreams: { maxStreams: 10, maxStreamsPerClient: 10 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await app?.close();
  });

  /** The bytes as sent, not decoded (fetch would decode them). */
  const get = (file: string, acceptEncoding: string) =>
    new Promise<{ status: number; encoding: string | null; body: Buffer }>((resolve, reject) => {
      http
        .get(`${url}${file}`, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              encoding: (response.headers['content-encoding'] as string | undefined) ?? null,
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    });

  test('are sent Brotli- or gzip-compressed as the browser accepts them, from the copies made at build time', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    assert.equal(br.encoding, 'br');
    assert.equal(brotliDecompressSync(br.body).toString(), script);
    assert.ok(br.body.length < script.length / 10);
    const gz = await get('/assets/index-abc123.js', 'gzip');
    assert.equal(gz.encoding, 'gzip');
    assert.equal(gunzipSync(gz.body).toString(), script);
    const plain = await get('/assets/index-abc123.js', 'identity');
    assert.equal(plain.encoding, null);
    assert.equal(plain.body.toString(), script);
  });

  test('the root is the app, compressed as well: a client that accepts gzip or br and asks for anything gets index.html', async () => {
    const root = await get('/', 'gzip, deflate, br');
    assert.equal(root.status, 200);
    assert.equal(root.encoding, 'br');
    assert.equal(brotliDecompressSync(root.body).toString(), '<!doctype html><title>Letterbox</title>');
  });

  test('never include the source maps', async () => {
    assert.equal((await get('/assets/index-abc123.js.map', 'identity')).status, 404);
  });
});
