import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, type CreatedUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import {
  createTestUser,
  describeFindings,
  fetchOpenApiDocument,
  fuzzRequests,
  operationsOf,
  pathParameterMismatches,
  runFuzz,
  testBlobStore,
  testDatabase,
  type Finding,
  type Hostile,
  type OpenApiDocument,
  type TestUser,
} from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from './testing/read-api-server';

/** The search syntax of `q`: operators whose values become dates and sizes in SQL. */
const SEARCH_SYNTAX: ReadonlyArray<Hostile<string>> = [
  { name: 'search larger than any bigint', value: 'larger:9999999999G' },
  { name: 'search smaller than nothing', value: 'smaller:0' },
  { name: 'search before year 0', value: 'before:0000-01-01' },
  { name: 'search after year 9999', value: 'after:9999-12-31' },
  { name: 'search with an empty operator', value: 'is:' },
  { name: 'search for an unknown has', value: 'has:x' },
  { name: 'search with an open quote', value: 'subject:"open' },
  { name: 'search excluding an operator', value: '-from:a' },
  { name: 'search of 21 words', value: Array.from({ length: 21 }, (_, index) => `w${index}`).join(' ') },
];

describe('every operation of the read API answers hostile input with a 4xx problem, never a 5xx', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let bystander: TestUser;
  let colleague: CreatedUser;
  let token: string;
  let document: OpenApiDocument;
  let mail: { id: number; threadId: number };
  let folderId: number;
  const findings: Finding[] = [];

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'fuzzed');
    bystander = await createTestUser(db, 'fuzz-bystander');
    // The fuzzed user administers their office, so that the admin routes' input is checked past the role check.
    await db.sql.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [user.id]);
    colleague = await createUser(db, { officeId: user.officeId, email: `colleague@${user.domain}`, displayName: 'Colleague', password: 'initial password' });
    mail = await storeMail(db, testBlobStore(), {
      userId: user.id,
      mailboxId: user.mailboxes.inbox,
      eml: await randomMail(4242, { to: [{ name: 'Fuzzed', address: user.email }] }),
    });
    // The fuzzed sign-ins are wrong passwords by the hundred; this address must still sign the bystander in afterwards.
    api = await startReadApiServer({ SIGN_IN_MAX_FAILURES_PER_CLIENT: '1000000' });
    token = await api.login(user.email, user.password);
    const folder = await fetch(`${api.url}/v2/mailboxes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Fuzz folder' }),
    });
    folderId = ((await folder.json()) as { id: number }).id;
    document = await fetchOpenApiDocument(api.url);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  /** Real ids of the user's, so that what passes validation goes on into the queries. */
  function pathValue(path: string, name: string): string | undefined {
    // Not the user's change (a change is made only by a POST): a 404 to fuzz.
    if (path.startsWith('/v2/mails/bulk/{id}')) return '1';
    if (path.startsWith('/v2/mails/{id}')) return name === 'partId' ? '2' : String(mail.id);
    if (path.startsWith('/v2/mailboxes/{id}')) return String(folderId);
    if (path.startsWith('/v2/threads/{id}')) return String(mail.threadId);
    if (path.startsWith('/v2/admin/users/{id}')) return name === 'address' ? `alias@${user.domain}` : String(colleague.id);
    return { officeNo: String(user.officeId), certKey: 'fuzzfuzzfuzzfuzz', email: user.email, token: 'fuzz-device-token' }[name];
  }

  test('the document declares each path parameter of each path', () => {
    assert.deepEqual(pathParameterMismatches(document), []);
  });

  // The admin routes, fuzzed as an administrator, are about a third of the requests (some 4,000 of 12,000).
  test('no hostile path, query, header or body is a 5xx, and each 4xx is a problem with a detail', { timeout: 420_000 }, async () => {
    const requests = fuzzRequests(operationsOf(document), {
      pathValue,
      extraStrings: SEARCH_SYNTAX,
      bodies: {
        'POST /v2/auth/password': { currentPassword: 'not the password', newPassword: 'a new password' },
        'DELETE /v2/auth/totp': { password: 'not the password' },
        'POST /v2/mails/bulk': { filter: { mailboxId: user.mailboxes.inbox }, seen: true },
        'POST /v2/mailboxes/{id}/unlock': { password: 'not the password' },
        'POST /v2/devices': { token: 'fuzz-device-token' },
        'POST /v2/admin/users': { email: `fuzz-new@${user.domain}`, displayName: 'Fuzz', password: 'initial password' },
        'PATCH /v2/admin/users/{id}': { displayName: 'Fuzzed colleague' },
        'POST /v2/admin/users/{id}/aliases': { address: `alias@${user.domain}` },
        'POST /v2/admin/domains': { name: `fuzz-${user.domain}` },
        'POST /v2/admin/groups': { name: 'Fuzz', address: `fuzz-group@${user.domain}`, userIds: [], groupIds: [] },
      },
    });
    findings.push(...(await runFuzz(api.url, requests)));
    // Logging out ends the token's session (or every one): after it, every request would stop at the sign-in check.
    findings.push(...(await runFuzz(api.url, requests, { token, last: ['POST /v2/auth/logout', 'POST /v2/auth/logout/everywhere'] })));
    assert.equal(findings.length, 0, describeFindings(findings));
  });

  test('the API still answers a normal request afterwards', async () => {
    assert.equal((await fetch(`${api.url}/health`)).status, 200);
    const bystanderToken = await api.login(bystander.email, bystander.password);
    const mailboxes = await fetch(`${api.url}/v2/mailboxes`, { headers: { authorization: `Bearer ${bystanderToken}` } });
    assert.equal(mailboxes.status, 200, await mailboxes.text());
  });
});
