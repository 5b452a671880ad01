import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_APP_PASSWORDS } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { accessTokenFor, createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

describe('app passwords: /v2/auth/app-passwords', () => {
  let db: Database;
  let api: RunningApi;

  before(async () => {
    db = testDatabase();
    api = await startReadApiServer();
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = async (user: TestUser, method: string, path = '', body?: unknown) => {
    const answer = await fetch(`${api.url}/v2/auth/app-passwords${path}`, {
      method,
      headers: { authorization: `Bearer ${accessTokenFor(user)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    return { status: answer.status, type: answer.headers.get('content-type') ?? '', body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };

  test('made with a name, its password answered once; listed without it; revoked; each audited', async () => {
    const user = await createTestUser(db, 'app-passwords');
    const made = await call(user, 'POST', '', { name: 'Thunderbird on the laptop' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.match(made.body?.password as string, /^[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}$/);
    assert.equal(made.body?.name, 'Thunderbird on the laptop');
    assert.equal(made.body?.lastUsedAt, null);

    const listed = await call(user, 'GET');
    assert.equal(listed.status, 200);
    const items = listed.body?.items as Array<Record<string, unknown>>;
    assert.deepEqual(
      items.map((item) => [item.id, item.name]),
      [[made.body?.id, 'Thunderbird on the laptop']],
    );
    assert.equal('password' in items[0], false, 'the password is never shown again');
    assert.doesNotMatch(JSON.stringify(listed.body), new RegExp(made.body?.password as string));

    assert.equal((await call(user, 'DELETE', `/${made.body?.id}`)).status, 204);
    assert.deepEqual((await call(user, 'GET')).body?.items, []);
    const again = await call(user, 'DELETE', `/${made.body?.id}`);
    assert.equal(again.status, 404);
    assert.match(again.type, /application\/problem\+json/);

    const events = await db.prisma.auditEvent.findMany({ where: { actorUserId: user.id }, orderBy: { id: 'asc' } });
    assert.deepEqual(
      events.map((event) => [event.action, (event.details as { name?: string }).name]),
      [
        ['auth.app-password.create', 'Thunderbird on the laptop'],
        ['auth.app-password.revoke', 'Thunderbird on the laptop'],
      ],
    );
  });

  test('a name PostgreSQL cannot store (a lone surrogate, a NUL) is 400 naming it, and nothing is made', async () => {
    const user = await createTestUser(db, 'app-password-unstorable');
    for (const name of ['Phone \ud800', 'Phone \u0000']) {
      const refused = await call(user, 'POST', '', { name });
      assert.equal(refused.status, 400);
      assert.match(refused.type, /application\/problem\+json/);
      assert.match(JSON.stringify(refused.body), /body\.name/);
    }
    assert.equal(((await call(user, 'GET')).body?.items as unknown[]).length, 0);
  });

  test("a nameless one is 400, someone else's 404, and past the limit 409, each problem+json", async () => {
    const user = await createTestUser(db, 'app-password-limits');
    const other = await createTestUser(db, 'app-password-other');
    const nameless = await call(user, 'POST', '', { name: '  ' });
    assert.equal(nameless.status, 400);
    assert.match(nameless.type, /application\/problem\+json/);
    assert.match(JSON.stringify(nameless.body), /body\.name/);

    const theirs = await call(other, 'POST', '', { name: 'Phone' });
    assert.equal((await call(user, 'DELETE', `/${theirs.body?.id}`)).status, 404);
    assert.equal(((await call(other, 'GET')).body?.items as unknown[]).length, 1, 'still theirs');

    for (let made = 0; made < MAX_APP_PASSWORDS; made++) assert.equal((await call(user, 'POST', '', { name: `Client ${made}` })).status, 201);
    const past = await call(user, 'POST', '', { name: 'One more' });
    assert.equal(past.status, 409);
    assert.match(past.type, /application\/problem\+json/);
  });
});
