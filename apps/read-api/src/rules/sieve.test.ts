import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

describe('rules as a Sieve script: GET and PUT /v2/sieve', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'sieve');
    await db.sql.query("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Bills', 'custom')", [user.id]);
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const put = (script: string, as = token, contentType = 'text/plain; charset=utf-8') =>
    fetch(`${api.url}/v2/sieve`, { method: 'PUT', headers: { authorization: `Bearer ${as}`, 'content-type': contentType }, body: script });
  const get = async (as = token) => {
    const response = await fetch(`${api.url}/v2/sieve`, { headers: { authorization: `Bearer ${as}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    return response.text();
  };
  const refusal = async (response: Response) => {
    assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    return ((await response.json()) as { detail: string }).detail;
  };

  test('a script pasted from managesieve is stored as written, and only for its user', async () => {
    assert.equal(await get(), '', 'no rules yet');
    const script = `require ["fileinto", "imap4flags"];\r\n# rule:[Bills]\r\nif header :contains "subject" "invoice" {\r\n  addflag "\\\\Seen";\r\n  fileinto "Bills";\r\n}\r\nif header :is "x-box" "in" { fileinto "INBOX"; }\r\n`;
    assert.equal((await put(script)).status, 204);
    assert.equal(await get(), script);
    const other = await createTestUser(db, 'sieve-other');
    assert.equal(await get(await api.login(other.email, other.password)), '');
    assert.equal((await put('  \n')).status, 204, 'an empty script removes the rules');
    assert.equal(await get(), '');
  });

  test('a script Letterbox cannot run is a 422 naming its line and column, and the rules stay', async () => {
    assert.equal((await put('require "fileinto";\nfileinto "Bills";')).status, 204);
    const cases: Array<[string, RegExp]> = [
      ['require "fileinto";\nif true {\n  filein "Bills";\n}', /^body: line 3, column 3: unknown command "filein"$/],
      ['require "fileinto";\n\nfileinto "Nowhere";', /^body: line 3, column 10: there is no folder named "Nowhere"$/],
      ['require "variables";', /the extension "variables" is not available in Letterbox yet/],
      ['require "fileinto";\nfileinto "Bills\u0000";', /^body: line 2, column 16: a NUL character$/],
      [`# ${'x'.repeat(64 * 1024)}`, /larger than 64 KB/],
      [
        `require "copy";\nredirect :copy "boss@elsewhere.example";\nredirect "${user.email.toUpperCase()}";`,
        new RegExp(`^body: line 3, column 10: "${user.email}" is your own address`),
      ],
      ['redirect "not an address";', /^body: line 1, column 10: "not an address" is not an e-mail address to redirect to$/],
    ];
    for (const [script, detail] of cases) {
      const response = await put(script);
      assert.equal(response.status, 422, script.slice(0, 40));
      assert.match(await refusal(response), detail);
    }
    assert.equal(await get(), 'require "fileinto";\nfileinto "Bills";');
    assert.equal((await put('{"script": "keep;"}', token, 'application/json')).status, 415);
    assert.equal((await put('x'.repeat(200 * 1024))).status, 413);
  });
});
