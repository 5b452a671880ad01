import assert from 'node:assert/strict';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from './testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

/** fetch joins repeated headers into one; node:http sends each. */
function twoAuthorizationHeaders(url: string, values: string[]): Promise<{ status?: number; type?: string }> {
  return new Promise((resolve, reject) => {
    const headers = ['host', new URL(url).host, ...values.flatMap((value) => ['authorization', value])];
    const request = http.get(url, { headers }, (response) => {
      response.resume();
      resolve({ status: response.statusCode, type: response.headers['content-type'] });
    });
    request.on('error', reject);
  });
}
const WEBMAIL_ORIGIN = 'http://127.0.0.1:8080';

/** An answer's bytes as sent, not decoded (fetch would decode them). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status?: number; encoding?: string; vary?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            encoding: response.headers['content-encoding'],
            vary: response.headers.vary,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

/** GET /v2/mailboxes is served beside Nest (a direct route): what Nest's guard, filter and hooks gave it, it still has. */
describe('the mailbox list served beside Nest', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'direct-list');
    api = await startReadApiServer();
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const list = (headers: Record<string, string>) => fetch(`${api.url}/v2/mailboxes`, { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const post = async (path: string, token: string) => {
    const response = await fetch(`${api.url}${path}`, { method: 'POST', headers: bearer(token) });
    assert.equal(response.status, 204, `${path}: ${await response.text()}`);
  };
  const refused = async (response: Response, status: number, detail: RegExp) => {
    assert.equal(response.status, status);
    assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    const problem = (await response.json()) as { status: number; detail: string; instance: string };
    assert.equal(problem.status, status);
    assert.equal(problem.instance, '/v2/mailboxes');
    assert.match(problem.detail, detail);
  };

  test('answers are compressed as the client accepts, Brotli first; without Accept-Encoding they come as they are', async () => {
    // Past the 1 KB below which nothing is compressed: a user with twenty folders.
    const owner = await createTestUser(db, 'compressed');
    await db.sql.query("INSERT INTO mailboxes (user_id, name, role) SELECT $1, 'Folder ' || n, 'custom' FROM generate_series(1, 20) AS n", [owner.id]);
    const headers = bearer(await api.login(owner.email, owner.password));
    const plain = await rawGet(`${api.url}/v2/mailboxes`, headers);
    assert.ok(plain.body.length > 1024, `the list is ${plain.body.length} bytes`);
    const br = await rawGet(`${api.url}/v2/mailboxes`, { ...headers, 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await rawGet(`${api.url}/v2/mailboxes`, { ...headers, 'accept-encoding': 'gzip' });
    assert.equal(plain.encoding, undefined);
    assert.equal(br.encoding, 'br');
    assert.equal(gzip.encoding, 'gzip');
    assert.match(br.vary ?? '', /accept-encoding/i);
    assert.deepEqual(JSON.parse(brotliDecompressSync(br.body).toString()), JSON.parse(plain.body.toString()));
    assert.deepEqual(JSON.parse(gunzipSync(gzip.body).toString()), JSON.parse(plain.body.toString()));
  });

  test('without a token, with a forged one, or with two Authorization headers: a problem, as from the guard', async () => {
    await refused(await list({}), 401, /a bearer token is required/);
    await refused(await list({ authorization: 'Basic YWxpY2U6c2VjcmV0' }), 401, /a bearer token is required/);
    await refused(await list(bearer('e30.forged')), 401, /invalid or has expired/);
    const token = await api.login(user.email, user.password);
    const twice = await twoAuthorizationHeaders(`${api.url}/v2/mailboxes`, [`Bearer ${token}`, 'Bearer other']);
    assert.deepEqual(twice, { status: 400, type: PROBLEM_JSON });
  });

  test("a signed-out session's token is refused at once, the user's other sessions stand until signed out everywhere", async () => {
    const [leaving, staying] = [await api.login(user.email, user.password), await api.login(user.email, user.password)];
    assert.equal((await list(bearer(leaving))).status, 200, 'a warm session, remembered');
    await post('/v2/auth/logout', leaving);
    await refused(await list(bearer(leaving)), 401, /revoked/);
    assert.equal((await list(bearer(staying))).status, 200);
    await post('/v2/auth/logout/everywhere', staying);
    await refused(await list(bearer(staying)), 401, /revoked/);
  });

  test('the request id, the CORS headers and the caching headers of every route', async () => {
    const token = await api.login(user.email, user.password);
    const answer = await list({ ...bearer(token), origin: WEBMAIL_ORIGIN, 'x-request-id': 'client-chosen-1' });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-request-id'), 'client-chosen-1');
    assert.equal(answer.headers.get('access-control-allow-origin'), WEBMAIL_ORIGIN);
    assert.match(answer.headers.get('access-control-expose-headers') ?? '', /ETag/);
    assert.equal(answer.headers.get('cache-control'), 'private, no-cache');
    const etag = answer.headers.get('etag') ?? '';
    assert.match(etag, new RegExp(`^"${user.id}\\.\\d+"$`));
    const denied = await list({ origin: 'https://elsewhere.example' });
    assert.equal(denied.headers.get('access-control-allow-origin'), null, 'no other origin');
    assert.ok(denied.headers.get('x-request-id'), 'a refusal has its request id too');
  });

  test('OpenAPI describes it as it described the Nest route: bearer sign-in, If-None-Match, the MailboxList answer and 304', async () => {
    const document = (await (await fetch(`${api.url}/docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown>; security: unknown }>>;
      components: { schemas: Record<string, unknown> };
    };
    const operation = document.paths['/v2/mailboxes'].get;
    assert.deepEqual(operation.security, [{ bearer: [] }]);
    assert.deepEqual(
      operation.parameters.map(({ name, in: where }) => ({ name, in: where })),
      [{ name: 'If-None-Match', in: 'header' }],
    );
    assert.deepEqual(operation.responses['200'], {
      description: '',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/MailboxList' } } },
    });
    assert.ok(operation.responses['304']);
    assert.ok(document.components.schemas.MailboxList, 'with the components it names');
    assert.ok(document.paths['/v2/mailboxes'].post, "Nest's routes of the path stay beside it");
  });
});

describe('the mail list served beside Nest', () => {
  let api: RunningApi;

  before(async () => {
    api = await startReadApiServer();
  });

  after(async () => {
    await api?.close();
  });

  test('refused without a token as every route is, and described in OpenAPI with each query parameter', async () => {
    const refused = await fetch(`${api.url}/v2/mails?limit=1`);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('content-type'), PROBLEM_JSON);
    const document = (await (await fetch(`${api.url}/docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown> }>>;
    };
    const operation = document.paths['/v2/mails'].get;
    assert.ok(operation.parameters.some(({ name, in: where }) => name === 'q' && where === 'query'));
    assert.deepEqual(operation.responses['200'], { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/MailPage' } } } });
  });
});
