import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

describe('rules as a Sieve script: GET and PUT /v2/sieve, POST /v2/sieve/apply', () => {
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

  test("POST /v2/sieve/apply runs the rules over a folder's mail: fileinto moves, flags are set, discard goes to the Trash, redirect does nothing", async () => {
    const applier = await createTestUser(db, 'sieve-apply');
    const { rows } = await db.sql.query<{ id: number }>("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Bills', 'custom') RETURNING id", [
      applier.id,
    ]);
    const bills = rows[0].id;
    const blobs = testBlobStore();
    const mail = async (subject: string, extra = '') =>
      (
        await storeMail(db, blobs, {
          userId: applier.id,
          mailboxId: applier.mailboxes.inbox,
          eml: Buffer.from(
            `From: Ann <ann@vendor.example>\r\nTo: ${applier.email}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '')}-${applier.id}@vendor.example>\r\n${extra}Date: Fri, 27 Nov 2026 10:00:00 +0000\r\n\r\nTotal due: 120 EUR.\r\n`,
          ),
        })
      ).id;
    const invoice = await mail('Invoice 11');
    const urgent = await mail('Urgent: call me');
    const newsletter = await mail('Weekly news', 'List-Id: <news.vendor.example>\r\n');
    const plain = await mail('Lunch?');
    const forwarded = await mail('Forward this');
    const as = await api.login(applier.email, applier.password);
    const script = `require ["fileinto", "imap4flags", "body"];
if header :contains "subject" "invoice" { fileinto "Bills"; stop; }
if header :contains "subject" "urgent" { addflag "\\\\Flagged"; }
if exists "list-id" { discard; stop; }
if header :contains "subject" "forward" { redirect "boss@elsewhere.example"; }`;
    assert.equal((await put(script, as)).status, 204);
    const apply = (body: unknown) =>
      fetch(`${api.url}/v2/sieve/apply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const applied = await apply({ folder: applier.mailboxes.inbox });
    assert.equal(applied.status, 200);
    assert.deepEqual(await applied.json(), { examined: 5, matched: 3, changed: 3 });
    const { rows: mails } = await db.sql.query<{ id: string; mailbox_id: number; flagged: boolean }>(
      'SELECT id, mailbox_id, flagged FROM mails WHERE user_id = $1 ORDER BY id',
      [applier.id],
    );
    const state = new Map(mails.map((row) => [Number(row.id), { mailbox: row.mailbox_id, flagged: row.flagged }]));
    assert.deepEqual(state.get(invoice), { mailbox: bills, flagged: false });
    assert.deepEqual(state.get(urgent), { mailbox: applier.mailboxes.inbox, flagged: true });
    assert.deepEqual(state.get(newsletter), { mailbox: applier.mailboxes.trash, flagged: false });
    assert.deepEqual(state.get(plain), { mailbox: applier.mailboxes.inbox, flagged: false });
    assert.deepEqual(state.get(forwarded), { mailbox: applier.mailboxes.inbox, flagged: false }, 'old mail is never redirected');
    const { rows: sends } = await db.sql.query('SELECT 1 FROM outbound_sends WHERE user_id = $1', [applier.id]);
    assert.equal(sends.length, 0);
    assert.deepEqual(
      await (await apply({ folder: applier.mailboxes.inbox })).json(),
      { examined: 3, matched: 1, changed: 0 },
      'applied again: nothing left to change',
    );
    const missing = await apply({ folder: 2_000_000_000 });
    assert.equal(missing.status, 404);
    const malformed = await apply({ folder: 'Inbox' });
    assert.equal(malformed.status, 400);
    assert.match(await refusal(malformed), /folder/);
  });
});
