import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

describe('the out-of-office reply: GET and PUT /v2/settings/vacation', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'vacation');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = (method: string, json?: unknown) =>
    fetch(`${api.url}/v2/settings/vacation`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });

  test('off until set; set with dates, its HTML sanitized; read back as stored', async () => {
    const initial = (await (await call('GET')).json()) as { enabled: boolean };
    assert.equal(initial.enabled, false);
    const wanted = {
      enabled: true,
      from: '2026-12-20T00:00:00.000Z',
      until: '2027-01-04T00:00:00.000Z',
      subject: 'Away for the holidays',
      text: 'Back on 4 January.',
      html: '<p>Back on <b>4 January</b>.<script>alert(1)</script></p>',
    };
    const response = await call('PUT', wanted);
    assert.equal(response.status, 200);
    const stored = (await response.json()) as typeof wanted;
    assert.equal(stored.html, '<p>Back on <b>4 January</b>.</p>');
    assert.deepEqual(await (await call('GET')).json(), stored);
  });

  test("a reply never set is offered in the user's language: Korean for ko, English until they choose", async () => {
    const korean = await createTestUser(db, 'vacation-ko');
    await db.sql.query(`UPDATE users SET locale = 'ko' WHERE id = $1`, [korean.id]);
    const koreanToken = await api.login(korean.email, korean.password);
    const offered = async (bearer: string) => {
      const response = await fetch(`${api.url}/v2/settings/vacation`, { headers: { authorization: `Bearer ${bearer}` } });
      const { subject, text } = (await response.json()) as { subject: string; text: string };
      return { subject, text };
    };
    assert.deepEqual(await offered(koreanToken), { subject: '부재중 안내', text: '지금은 자리에 없습니다. 돌아와서 답장드리겠습니다.' });
    const english = await createTestUser(db, 'vacation-unset');
    assert.deepEqual(await offered(await api.login(english.email, english.password)), {
      subject: 'Out of office',
      text: 'I am away and will answer when I am back.',
    });
  });

  test('a reply that cannot be is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ enabled: true, subject: '', text: 'x' }, 'subject'],
      [{ enabled: true, subject: 'Away', text: 'x', from: '2027-01-04T00:00:00Z', until: '2026-12-20T00:00:00Z' }, 'until'],
      [{ enabled: 'yes', subject: 'Away', text: 'x' }, 'enabled'],
      [{ enabled: true, subject: 'Away\u0000', text: 'x' }, 'subject'],
      [{ enabled: true, subject: 'Away', text: 'x', from: '0000-01-01T00:00:00Z' }, 'from'],
    ] as const) {
      const response = await call('PUT', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      const problem = (await response.json()) as { errors: Array<{ field: string }> };
      assert.ok(
        problem.errors.some((error) => error.field.endsWith(field)),
        JSON.stringify(problem),
      );
    }
  });
});
