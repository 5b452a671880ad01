import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import type { ProblemDetails as Problem } from '@letterbox/http';
import { storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from './testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

interface Call {
  method?: string;
  path: string | (() => string);
  /** A value to send as JSON, or a string to send as it is. */
  body?: unknown;
  contentType?: string;
  /** Sent without the test user's token. */
  anonymous?: boolean;
}

describe('bad input is a 4xx problem naming the field', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  let mailId: number;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'validator');
    mailId = (
      await storeMail(db, testBlobStore(), {
        userId: user.id,
        mailboxId: user.mailboxes.inbox,
        eml: await randomMail(9001, { to: [{ name: 'Validator', address: user.email }] }),
      })
    ).id;
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  function send({ method = 'GET', path, body, contentType, anonymous }: Call): Promise<Response> {
    const headers: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
    return fetch(`${api.url}${typeof path === 'string' ? path : path()}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async function problemOf(response: Response, status: number): Promise<Problem> {
    const text = await response.text();
    assert.equal(response.status, status, text);
    assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    const problem = JSON.parse(text) as Problem;
    assert.equal(problem.status, status);
    assert.equal(typeof problem.title, 'string');
    assert.equal(typeof problem.detail, 'string');
    return problem;
  }

  /** A 400 whose `errors` hold exactly the fields expected, each with a message that the detail repeats. */
  async function assertFieldErrors(call: Call, fields: string[]): Promise<Problem> {
    const problem = await problemOf(await send(call), 400);
    assert.ok(Array.isArray(problem.errors), `errors is a list: ${JSON.stringify(problem)}`);
    assert.deepEqual([...new Set(problem.errors.map((error) => error.field))].sort(), [...fields].sort(), JSON.stringify(problem.errors));
    for (const error of problem.errors) {
      assert.ok(error.message.length > 0);
      assert.ok(problem.detail.includes(error.field), `detail names ${error.field}`);
    }
    return problem;
  }

  const mail = () => `/v2/mails/${mailId}`;
  const list = (query: string) => `/v2/mails?${query}`;

  const cases: Array<[string, Call, string[]]> = [
    ['mail id abc', { path: '/v2/mails/abc' }, ['path.id']],
    ['mail id 0', { path: '/v2/mails/0' }, ['path.id']],
    ['mail id -1', { path: '/v2/mails/-1' }, ['path.id']],
    ['mail id 1.5', { path: '/v2/mails/1.5' }, ['path.id']],
    ['mail id beyond 2^53', { path: '/v2/mails/9007199254740993' }, ['path.id']],
    ['huge mail id', { path: '/v2/mails/99999999999999999999' }, ['path.id']],
    ['bad mail id on raw', { path: '/v2/mails/abc/raw' }, ['path.id']],
    ['bad mail id on an attachment', { path: '/v2/mails/0/attachments/1' }, ['path.id']],
    ['bad part id', { path: () => `${mail()}/attachments/x` }, ['path.partId']],
    ['part id with a trailing dot', { path: () => `${mail()}/attachments/1.` }, ['path.partId']],
    ['bad mail id on PATCH', { method: 'PATCH', path: '/v2/mails/abc', body: { seen: true } }, ['path.id']],
    ['bad mail id on DELETE', { method: 'DELETE', path: '/v2/mails/-1' }, ['path.id']],
    ['cursor that is not base64 JSON', { path: list('cursor=zzz') }, ['query.cursor']],
    ['cursor of the wrong shape', { path: list(`cursor=${Buffer.from('[1]').toString('base64url')}`) }, ['query.cursor']],
    ['cursor with a negative id', { path: list(`cursor=${Buffer.from('[1700000000000,-4]').toString('base64url')}`) }, ['query.cursor']],
    ['too long cursor', { path: list(`cursor=${'A'.repeat(201)}`) }, ['query.cursor']],
    ['unknown sort', { path: list('sort=subject') }, ['query.sort']],
    ['unknown query parameter', { path: list('foo=1') }, ['query.foo']],
    ['two unknown query parameters', { path: list('foo=1&bar=2') }, ['query.foo', 'query.bar']],
    ['limit 0', { path: list('limit=0') }, ['query.limit']],
    ['limit 101', { path: list('limit=101') }, ['query.limit']],
    ['limit x', { path: list('limit=x') }, ['query.limit']],
    ['limit given twice', { path: list('limit=1&limit=2') }, ['query.limit']],
    ['mailboxId x', { path: list('mailboxId=x') }, ['query.mailboxId']],
    ['mailboxId 0', { path: list('mailboxId=0') }, ['query.mailboxId']],
    ['seen=maybe', { path: list('seen=maybe') }, ['query.seen']],
    ['flagged=yes', { path: list('flagged=yes') }, ['query.flagged']],
    ['hasAttachments=2', { path: list('hasAttachments=2') }, ['query.hasAttachments']],
    ['since that is not a date', { path: list('since=yesterday') }, ['query.since']],
    ['until without a time', { path: list('until=2026-01-31') }, ['query.until']],
    ['until with a month 13', { path: list('until=2026-13-01T00:00:00Z') }, ['query.until']],
    ['with=unknown', { path: list('with=unknown') }, ['query.with']],
    ['with holding one unknown', { path: list('with=attachments&with=unknown') }, ['query.with']],
    ['subject over 500 characters', { path: list(`subject=${'s'.repeat(501)}`) }, ['query.subject']],
    ['empty subject', { path: list('subject=') }, ['query.subject']],
    ['from over 320 characters', { path: list(`from=${'f'.repeat(321)}`) }, ['query.from']],
    ['a NUL in from', { path: list('from=a%00b') }, ['query.from']],
    ['a NUL in subject', { path: list('subject=a%00b') }, ['query.subject']],
    ['a NUL in a search', { path: list('q=a%00b') }, ['query.q']],
    ['a NUL in a contacts search', { path: '/v2/contacts?q=a%00b' }, ['query.q']],
    ['a NUL in a bulk filter', { method: 'POST', path: '/v2/mails/bulk', body: { filter: { from: 'a\u0000b' }, seen: true } }, ['body.filter.from']],
    ['several bad parameters at once', { path: list('limit=0&seen=maybe&sort=x') }, ['query.limit', 'query.seen', 'query.sort']],
    ['PATCH with an empty object', { method: 'PATCH', path: mail, body: {} }, ['body']],
    ['PATCH seen null', { method: 'PATCH', path: mail, body: { seen: null } }, ['body.seen']],
    ['PATCH with a JSON array', { method: 'PATCH', path: mail, body: [] }, ['body']],
    ['PATCH with no body', { method: 'PATCH', path: mail }, ['body']],
    ['PATCH seen as a string', { method: 'PATCH', path: mail, body: { seen: 'true' } }, ['body.seen']],
    ['PATCH flagged as a number', { method: 'PATCH', path: mail, body: { flagged: 1 } }, ['body.flagged']],
    ['PATCH mailboxId as a string', { method: 'PATCH', path: mail, body: { mailboxId: '3' } }, ['body.mailboxId']],
    ['PATCH mailboxId 0', { method: 'PATCH', path: mail, body: { mailboxId: 0 } }, ['body.mailboxId']],
    ['PATCH mailboxId 1.5', { method: 'PATCH', path: mail, body: { mailboxId: 1.5 } }, ['body.mailboxId']],
    ['PATCH with an unknown key', { method: 'PATCH', path: mail, body: { seen: true, deleted: true } }, ['body.deleted']],
    [
      'PATCH with wrong types and unknown keys together',
      { method: 'PATCH', path: mail, body: { seen: 'yes', important: 'no', subject: 'x', userId: 1 } },
      ['body.seen', 'body.important', 'body.subject', 'body.userId'],
    ],
    ['login with a bad email', { method: 'POST', path: '/v2/auth/login', body: { email: 'not-an-email', password: 'x' }, anonymous: true }, ['body.email']],
    ['login without a password', { method: 'POST', path: '/v2/auth/login', body: { email: 'a@example.test' }, anonymous: true }, ['body.password']],
    [
      'login with an empty password',
      { method: 'POST', path: '/v2/auth/login', body: { email: 'a@example.test', password: '' }, anonymous: true },
      ['body.password'],
    ],
    ['login with an empty object', { method: 'POST', path: '/v2/auth/login', body: {}, anonymous: true }, ['body.email', 'body.password']],
    [
      'login with non-string fields',
      { method: 'POST', path: '/v2/auth/login', body: { email: ['a@example.test'], password: 12345 }, anonymous: true },
      ['body.email', 'body.password'],
    ],
  ];

  for (const [name, call, fields] of cases) {
    test(`${name} → 400 naming ${fields.join(', ')}`, async () => {
      await assertFieldErrors(call, fields);
    });
  }

  test('a PATCH that fails validation changes nothing', async () => {
    const before = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) } });
    await assertFieldErrors({ method: 'PATCH', path: mail, body: { seen: true, flagged: true, bogus: 1 } }, ['body.bogus']);
    await assertFieldErrors({ method: 'PATCH', path: mail, body: { seen: !before.seen, mailboxId: 'x' } }, ['body.mailboxId']);
    assert.deepEqual(await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) } }), before);
  });

  test('the boundaries just inside the limits are accepted', async () => {
    for (const query of ['limit=1', 'limit=100', `subject=${'s'.repeat(500)}`, 'seen=1', 'seen=false', 'since=2026-01-31T00:00:00%2B09:00']) {
      const response = await send({ path: list(query) });
      assert.equal(response.status, 200, `${query}: ${await response.text()}`);
    }
  });

  const malformedJson: Array<[string, Call]> = [
    ['PATCH', { method: 'PATCH', path: mail, body: '{"seen": tru' }],
    ['login', { method: 'POST', path: '/v2/auth/login', body: '{"email": "a@example.test", ', anonymous: true }],
  ];
  for (const [name, call] of malformedJson) {
    test(`malformed JSON on ${name} is a 400 problem`, async () => {
      const problem = await problemOf(await send(call), 400);
      assert.match(problem.detail, /JSON/);
    });

    test(`malformed JSON on ${name} names the field body`, async () => {
      const problem = await problemOf(await send(call), 400);
      assert.deepEqual(
        problem.errors?.map((error) => error.field),
        ['body'],
        JSON.stringify(problem),
      );
    });
  }

  test('a request body over 64 KB is a 413 problem, on PATCH and on login', async () => {
    const big = 'x'.repeat(65 * 1024);
    const patch = await problemOf(await send({ method: 'PATCH', path: mail, body: { seen: true, pad: big } }), 413);
    assert.equal(patch.title, 'Payload Too Large');
    const login = await problemOf(await send({ method: 'POST', path: '/v2/auth/login', body: { email: user.email, password: big }, anonymous: true }), 413);
    assert.equal(login.title, 'Payload Too Large');
    const after = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) }, select: { seen: true } });
    assert.equal(after.seen, false, 'the oversize PATCH was not applied');
  });

  test('an unknown route is a 404 problem', async () => {
    for (const [method, path] of [
      ['GET', '/v2/nope'],
      ['GET', '/v3/mails'],
      ['POST', '/v2/mails'],
      ['PUT', () => mail()],
      ['GET', () => `${mail()}/attachments`],
    ] as const) {
      const problem = await problemOf(await send({ method, path }), 404);
      assert.equal(problem.title, 'Not Found');
    }
  });

  test('ids and numbers are accepted only in their plain decimal form', async () => {
    for (const id of ['1e0', '0x10', '+1', '%201', '1.0']) {
      await assertFieldErrors({ path: `/v2/mails/${id}` }, ['path.id']);
    }
    await assertFieldErrors({ path: list('limit=1e1') }, ['query.limit']);
    await assertFieldErrors({ path: list('mailboxId=0x1') }, ['query.mailboxId']);
  });

  test('limit out of range says the allowed range', async () => {
    for (const query of ['limit=0', 'limit=101']) {
      const problem = await assertFieldErrors({ path: list(query) }, ['query.limit']);
      assert.notEqual(problem.errors?.[0].message, 'must be a number', `${query} is a number; the message should say 1 to 100`);
    }
  });

  test('a huge mail id is reported once', async () => {
    const problem = await assertFieldErrors({ path: '/v2/mails/99999999999999999999' }, ['path.id']);
    assert.equal(problem.errors?.length, 1, JSON.stringify(problem.errors));
  });

  test('with=unknown lists the known expansions', async () => {
    const problem = await assertFieldErrors({ path: list('with=unknown') }, ['query.with']);
    assert.match(problem.errors?.[0].message ?? '', /attachments/);
  });
});
