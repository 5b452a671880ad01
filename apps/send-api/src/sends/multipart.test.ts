import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import type { ProblemDetails as Problem } from '@letterbox/http';
import { SentCopies } from '@letterbox/sending';
import { accessTokenFor, createTestUser, testBlobStore, testDatabase, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

const BOUNDARY = 'letterbox-test-boundary';

/** A multipart body written by hand, to say what no well-behaved client would. */
function form(parts: Array<{ headers: string[]; content: string }>, { closed = true } = {}): string {
  const body = parts.map((part) => `--${BOUNDARY}\r\n${part.headers.join('\r\n')}\r\n\r\n${part.content}\r\n`).join('');
  return closed ? `${body}--${BOUNDARY}--\r\n` : body;
}

const field = (name: string, value: string) => ({ headers: [`Content-Disposition: form-data; name="${name}"`], content: value });
const file = (disposition: string, contentType: string, content = 'file content') => ({
  headers: [`Content-Disposition: form-data; name="attachments"; ${disposition}`, `Content-Type: ${contentType}`],
  content,
});

describe('a multipart send that does not parse is the client’s to fix', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let api: RunningSendApi;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix });
    user = await createTestUser(db, 'multipart');
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  async function post(body: string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
    const response = await fetch(`${api.url}/v2/mails/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessTokenFor(user)}`, 'content-type': contentType },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: (await response.json()) as Problem & { id?: number; sentMailId?: number },
    };
  }

  async function expectRefused(answer: Awaited<ReturnType<typeof post>>, detail: RegExp) {
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.match(answer.type, /^application\/problem\+json/);
    assert.match(answer.body.detail, detail);
    assert.ok(
      answer.body.errors?.some((error) => error.field === 'attachments'),
      JSON.stringify(answer.body.errors),
    );
  }

  const to = () => field('to', `${randomUUID().slice(0, 8)}@recipients.test`);

  test('multipart/form-data without a boundary', async () => {
    await expectRefused(await post(form([to()]), 'multipart/form-data'), /boundary/);
    await expectRefused(await post(form([to()]), 'multipart/form-data; boundary='), /boundary/);
  });

  test('a body cut short inside a field', async () => {
    await expectRefused(await post(form([to(), field('text', 'hello')], { closed: false }).slice(0, -10)), /end/i);
  });

  test('a body cut short inside a file', async () => {
    await expectRefused(await post(form([to(), file('filename="a.txt"', 'text/plain', 'x'.repeat(5000))], { closed: false })), /end/i);
  });

  test('a part whose Content-Type holds a NUL, or is not type/subtype', async () => {
    await expectRefused(await post(form([to(), file('filename="a.txt"', 'text/pl\u0000ain')])), /content type/);
    await expectRefused(await post(form([to(), file('filename="a.txt"', 'nonsense')])), /content type/);
  });

  test('a filename* with a line break is refused, not silently left out', async () => {
    const answer = await post(form([to(), field('text', 'see attached'), file(`filename*=utf-8''..%2F..%2Fevil%0D%0ABcc%3A%20x.txt`, 'text/plain')]));
    await expectRefused(answer, /line break/);
  });

  test('a filename* with ../ is kept under its last segment, without control characters', async () => {
    const answer = await post(form([to(), field('text', 'see attached'), file(`filename*=utf-8''..%2F..%2Fetc%2Fpass%07wd.txt`, 'text/plain')]));
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    // As the ingest worker stores it: the Sent copy lists the attachment under the name kept.
    await new SentCopies(db, testBlobStore(), queuePrefix).store([answer.body.id ?? 0]);
    const attachments = await db.prisma.attachment.findMany({ where: { mailId: BigInt(answer.body.sentMailId ?? 0) } });
    assert.deepEqual(
      attachments.map((one) => [one.filename, one.contentType]),
      [['passwd.txt', 'text/plain']],
    );
  });
});
