import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import {
  accessTokenFor,
  createTestUser,
  describeFindings,
  fetchOpenApiDocument,
  type Finding,
  fuzzRequests,
  type OpenApiDocument,
  operationsOf,
  pathParameterMismatches,
  runFuzz,
  testDatabase,
  testQueuePrefix,
  type TestUser,
} from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from './testing/send-api-server';

describe('every operation of the send API answers hostile input with a 4xx problem, never a 5xx', () => {
  let db: Database;
  let api: RunningSendApi;
  let user: TestUser;
  let token: string;
  let document: OpenApiDocument;
  const ids = { send: 0, draft: 0, draftToSend: 0 };
  const findings: Finding[] = [];

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'fuzzed-sender');
    // No delivery worker: the sends the fuzzer makes stay queued under a prefix of this file's own.
    api = await startSendApiServer({ QUEUE_PREFIX: testQueuePrefix() });
    token = accessTokenFor(user);
    ids.send = (await post('/v2/mails/send', { to: ['fuzz@example.test'], subject: 'Fuzz', text: 'fuzz' })).id;
    ids.draft = (await post('/v2/drafts', { subject: 'Fuzz draft' })).id;
    ids.draftToSend = (await post('/v2/drafts', { to: ['fuzz@example.test'], subject: 'Fuzz draft to send' })).id;
    document = await fetchOpenApiDocument(api.url);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  async function post(path: string, body: object): Promise<{ id: number }> {
    const response = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as { id: number };
  }

  /** Ids of the user's own, so that what passes validation goes on into the queries; sending a draft ends it, so that one has its own. */
  function pathValue(path: string): string {
    if (path.startsWith('/v2/mails/send/')) return String(ids.send);
    return String(path.endsWith('/send') ? ids.draftToSend : ids.draft);
  }

  test('the document declares each path parameter of each path', () => {
    assert.deepEqual(pathParameterMismatches(document), []);
  });

  test('no hostile path, query, header, body or form is a 5xx, and each 4xx is a problem with a detail', { timeout: 180_000 }, async () => {
    const requests = fuzzRequests(operationsOf(document), {
      pathValue,
      fileField: 'attachments',
      bodies: {
        'POST /v2/mails/send': { to: ['fuzz@example.test'], subject: 'Fuzz', text: 'fuzz' },
        'POST /v2/drafts': { to: ['fuzz@example.test'], subject: 'Fuzz' },
        'PUT /v2/drafts/{id}': { version: 1, subject: 'Fuzz' },
      },
    });
    findings.push(...(await runFuzz(api.url, requests)));
    findings.push(...(await runFuzz(api.url, requests, { token })));
    assert.equal(findings.length, 0, describeFindings(findings));
  });

  test('the API still answers a normal request afterwards', async () => {
    assert.equal((await fetch(`${api.url}/health`)).status, 200);
    const sent = await post('/v2/mails/send', { to: ['fuzz@example.test'], subject: 'After the fuzz', text: 'still here' });
    const status = await fetch(`${api.url}/v2/mails/send/${sent.id}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(status.status, 200, await status.text());
  });
});
