import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import type { ProblemDetails as Problem } from '@letterbox/http';
import type { DraftView } from '@letterbox/sending';
import { accessTokenFor, createTestUser, SendClient, testDatabase, testQueuePrefix, type TestUser, logFaultsAsExpected } from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

// Sends past the quota are refused with 507 on purpose: those warnings are expected.
logFaultsAsExpected();

const PROBLEM_JSON = /^application\/problem\+json/;
/** USER_QUOTA_BYTES of this file's send API: the quota of every user without one of their own. */
const QUOTA_BYTES = 300_000;
const KB = 1024;

const file = (kilobytes: number, name = 'file.bin') => ({ filename: name, contentType: 'application/octet-stream', content: randomBytes(kilobytes * KB) });

describe('the sender’s quota: sends and drafts past it are a 507', () => {
  let db: Database;
  let api: RunningSendApi;
  const recipient = (name: string) => `${name}.${randomUUID().slice(0, 8)}@recipients.test`;

  before(async () => {
    db = testDatabase();
    api = await startSendApiServer({ QUEUE_PREFIX: testQueuePrefix(), USER_QUOTA_BYTES: String(QUOTA_BYTES) });
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const usedBytes = async (user: TestUser) => Number((await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).usedBytes);
  const sendsOf = (user: TestUser) => db.prisma.outboundSend.count({ where: { userId: user.id } });
  const draftsOf = (user: TestUser) => db.prisma.draft.count({ where: { userId: user.id } });

  function assertQuotaProblem(answer: { status: number; headers: Headers; body: unknown }, user: TestUser, quotaBytes = QUOTA_BYTES) {
    assert.equal(answer.status, 507, JSON.stringify(answer.body));
    assert.match(answer.headers.get('content-type') ?? '', PROBLEM_JSON);
    const problem = answer.body as Problem;
    assert.equal(problem.status, 507);
    assert.ok(problem.detail.includes(user.email) && problem.detail.includes(`${quotaBytes} bytes`), `the problem names the user’s quota: ${problem.detail}`);
  }

  /** The drafts routes as the webmail calls them, files in multipart/form-data. */
  async function draftCall(user: TestUser, method: string, path: string, fields: Record<string, string>, files: Array<ReturnType<typeof file>> = []) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const one of files) form.append('attachments', new Blob([new Uint8Array(one.content)], { type: one.contentType }), one.filename);
    const response = await fetch(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${accessTokenFor(user)}` }, body: form });
    return { status: response.status, headers: response.headers, body: (await response.json()) as DraftView & Problem };
  }

  test('a send under the quota is accepted; one whose message would go past it is a 507 naming the quota, and nothing is recorded', async () => {
    const user = await createTestUser(db, 'quota-send');
    const client = new SendClient(api.url, accessTokenFor(user));
    const small = await client.sendMultipart({ to: recipient('small') }, [file(100)]);
    assert.equal(small.status, 202, JSON.stringify(small.body));
    const big = await client.sendMultipart({ to: recipient('big') }, [file(240)]);
    assertQuotaProblem(big, user);
    assert.equal(await sendsOf(user), 1);
  });

  test('a user’s own quota, set by an administrator, is the one that counts', async () => {
    const user = await createTestUser(db, 'quota-own');
    const client = new SendClient(api.url, accessTokenFor(user));
    await db.prisma.user.update({ where: { id: user.id }, data: { quotaBytes: 2_000_000 } });
    assert.equal((await client.sendMultipart({ to: recipient('roomy') }, [file(240)])).status, 202);
    await db.prisma.user.update({ where: { id: user.id }, data: { quotaBytes: 10_000 } });
    assertQuotaProblem(await client.send({ to: [recipient('tight')], text: 'x'.repeat(20_000) }), user, 10_000);
  });

  test('a draft’s attachments count in the user’s usage, and a save adding files past the quota is a 507 that keeps the draft as it was', async () => {
    const user = await createTestUser(db, 'quota-draft');
    const made = await draftCall(user, 'POST', '/v2/drafts', { to: recipient('d'), subject: 'With a file' }, [file(120, 'one.bin')]);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const afterOne = await usedBytes(user);
    assert.ok(afterOne > 120 * KB, `the draft’s mail, its file within, is counted: ${afterOne} bytes`);
    const grown = await draftCall(user, 'PUT', `/v2/drafts/${made.body.id}`, { version: '1' }, [file(120, 'two.bin')]);
    assertQuotaProblem(grown, user);
    assert.equal(await usedBytes(user), afterOne, 'nothing of the refused save is counted');
    const kept = await draftCall(user, 'PUT', `/v2/drafts/${made.body.id}`, { version: '1', text: 'the file is enough' });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.deepEqual(
      kept.body.attachments.map((attachment) => attachment.filename),
      ['one.bin'],
    );
  });

  test('a new draft whose files go past the quota is a 507, and no draft is made', async () => {
    const user = await createTestUser(db, 'quota-new-draft');
    assertQuotaProblem(await draftCall(user, 'POST', '/v2/drafts', { to: recipient('n') }, [file(120, 'a.bin'), file(120, 'b.bin')]), user);
    assert.equal(await draftsOf(user), 0);
    assert.equal(await usedBytes(user), 0);
  });

  test('a draft no longer grows without bound: saves adding files stop at the quota', async () => {
    const user = await createTestUser(db, 'quota-growing');
    const made = await draftCall(user, 'POST', '/v2/drafts', { to: recipient('g') });
    let version = made.body.version;
    let refused: Awaited<ReturnType<typeof draftCall>> | undefined;
    for (let save = 0; save < 20 && !refused; save++) {
      const answer = await draftCall(user, 'PUT', `/v2/drafts/${made.body.id}`, { version: String(version) }, [file(30, `part-${save}.bin`)]);
      if (answer.status === 200) version = answer.body.version;
      else refused = answer;
    }
    assert.ok(refused, 'a save was refused');
    assertQuotaProblem(refused, user);
    assert.ok(version > 3, `saves under the quota went through: version ${version}`);
    assert.ok((await usedBytes(user)) <= QUOTA_BYTES);
  });

  test('a save that takes files out is never refused, even past the quota', async () => {
    const user = await createTestUser(db, 'quota-shrink');
    const made = await draftCall(user, 'POST', '/v2/drafts', { to: recipient('s') }, [file(60, 'a.bin'), file(60, 'b.bin')]);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await db.prisma.user.update({ where: { id: user.id }, data: { quotaBytes: 1000 } });
    const shrunk = await draftCall(user, 'PUT', `/v2/drafts/${made.body.id}`, { version: '1', removeAttachments: made.body.attachments[0].id });
    assert.equal(shrunk.status, 200, JSON.stringify(shrunk.body));
    assert.equal(shrunk.body.attachments.length, 1);
  });

  test('sending a draft counts the room its own mail frees: a draft that fits can be sent', async () => {
    const user = await createTestUser(db, 'quota-draft-send');
    const made = await draftCall(user, 'POST', '/v2/drafts', { to: recipient('ds'), subject: 'Big one' }, [file(150, 'big.bin')]);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    // Its message counted again would not fit beside the draft: 2 × ~205 KB > 300,000 bytes.
    const sent = await fetch(`${api.url}/v2/drafts/${made.body.id}/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessTokenFor(user)}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(sent.status, 202, await sent.text());
    assert.equal(await draftsOf(user), 0);
  });
});
