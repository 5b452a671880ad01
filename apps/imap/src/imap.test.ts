import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ImapFlow } from 'imapflow';
import type { Database } from '@letterbox/db';
import { MailboxChanges, storeMail } from '@letterbox/mail';
import { createTestUser, freePort, testBlobStore, testDatabase, testQueuePrefix, writeTestCertificate, type TestUser } from '@letterbox/testing';
import { loadImapConfig } from './imap.config';
import { startImap, type RunningImap } from './start-imap';
import { RawImapClient } from './testing/raw-imap-client';

const WRONG_PASSWORDS_ALLOWED = 3;

describe('the IMAP app: sign-in, mailboxes and limits, with real clients', () => {
  let db: Database;
  let imap: RunningImap;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap');
    const mailboxes = new MailboxChanges(db.sql, async () => true);
    await mailboxes.create(user.id, 'Entwürfe & Ideen');
    await mailboxes.lock(user.id, (await mailboxes.create(user.id, 'Secret')).id);
    const { rows } = await db.sql.query<{ id: number }>(`SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'inbox'`, [user.id]);
    for (const subject of ['one', 'two']) {
      const eml = Buffer.from(`From: a@x.test\r\nTo: ${user.email}\r\nSubject: ${subject}\r\nMessage-ID: <${subject}.${user.id}@x.test>\r\n\r\nbody\r\n`);
      await storeMail(db, testBlobStore(), { userId: user.id, mailboxId: rows[0].id, eml });
    }
    const certificate = await writeTestCertificate();
    const config = loadImapConfig({
      ...process.env,
      IMAP_HOST: '127.0.0.1',
      IMAP_PORT: String(await freePort()),
      IMAPS_PORT: String(await freePort()),
      OPS_PORT: '0',
      IMAP_TLS_CERT: certificate.certFile,
      IMAP_TLS_KEY: certificate.keyFile,
      IMAP_ALLOW_PLAINTEXT: 'false',
      QUEUE_PREFIX: testQueuePrefix(),
      SIGN_IN_MAX_FAILURES_PER_ACCOUNT: String(WRONG_PASSWORDS_ALLOWED),
    });
    imap = await startImap(config);
  });

  after(async () => {
    await imap.close();
    await db.close();
  });

  const flow = (options: Partial<ConstructorParameters<typeof ImapFlow>[0]> = {}) =>
    new ImapFlow({
      host: '127.0.0.1',
      port: imap.port,
      secure: false,
      doSTARTTLS: true,
      tls: { rejectUnauthorized: false },
      auth: { user: user.email, pass: user.password },
      logger: false,
      disableAutoIdle: true,
      ...options,
    });

  test('imapflow over STARTTLS: LOGIN, LIST with special use (locked mailboxes hidden), STATUS, ID, NAMESPACE', async () => {
    const client = flow();
    await client.connect();
    try {
      assert.equal(client.serverInfo?.name, 'Letterbox');
      for (const capability of ['IMAP4rev1', 'IDLE', 'SPECIAL-USE', 'NAMESPACE', 'ID', 'ENABLE', 'LITERAL+'])
        assert.ok(client.capabilities.has(capability), capability);
      assert.ok(!client.capabilities.has('STARTTLS'), 'STARTTLS is not offered once done');
      const list = await client.list();
      assert.deepEqual(
        list.map((mailbox) => [mailbox.path, mailbox.specialUse ?? null]).sort(),
        [
          ['Drafts', '\\Drafts'],
          ['Entwürfe & Ideen', null],
          ['INBOX', '\\Inbox'],
          ['Sent', '\\Sent'],
          ['Spam', '\\Junk'],
          ['Trash', '\\Trash'],
        ].sort(),
      );
      assert.deepEqual(await client.status('INBOX', { messages: true, unseen: true }), { path: 'INBOX', messages: 2, unseen: 2 });
      await assert.rejects(client.status('Secret', { messages: true }));
    } finally {
      await client.logout();
    }
  });

  test('imapflow over implicit TLS with AUTHENTICATE PLAIN (SASL-IR)', async () => {
    const client = flow({
      port: imap.tlsPort,
      secure: true,
      doSTARTTLS: undefined,
      auth: { user: user.email, pass: user.password, loginMethod: 'AUTH=PLAIN' },
    });
    await client.connect();
    assert.ok(client.authenticated);
    await client.logout();
  });

  test("Python's imaplib: STARTTLS, a wrong password, AUTHENTICATE PLAIN after a continuation, LIST, STATUS, NAMESPACE, ID", async () => {
    const script = path.join(__dirname, 'testing', 'imaplib_session.py');
    const { stdout } = await promisify(execFile)('python3', [script, String(imap.port), user.email, user.password]);
    const result = JSON.parse(stdout) as Record<string, unknown>;
    assert.ok((result.capabilities_before_tls as string[]).includes('STARTTLS'));
    assert.ok((result.capabilities_before_tls as string[]).includes('LOGINDISABLED'));
    assert.ok((result.capabilities_after_tls as string[]).includes('AUTH=PLAIN'));
    assert.match(String(result.wrong_password), /AUTHENTICATIONFAILED/);
    assert.equal(result.authenticate, 'OK');
    assert.deepEqual((result.list as string[]).sort(), [
      '(\\HasNoChildren \\Drafts) "/" "Drafts"',
      '(\\HasNoChildren \\Junk) "/" "Spam"',
      '(\\HasNoChildren \\Sent) "/" "Sent"',
      '(\\HasNoChildren \\Trash) "/" "Trash"',
      '(\\HasNoChildren) "/" "Entw&APw-rfe &- Ideen"',
      '(\\HasNoChildren) "/" "INBOX"',
    ]);
    assert.equal(result.status, '"INBOX" (MESSAGES 2 UNSEEN 2)');
    assert.equal(result.namespace, '(("" "/")) NIL NIL');
    assert.deepEqual(result.id, ['("name" "Letterbox" "vendor" "Letterbox")']);
    assert.equal(result.logout, 'BYE');
  });

  test('without TLS, signing in is refused (PRIVACYREQUIRED) and the capabilities say so', async () => {
    const { client, greeting } = await RawImapClient.connect(imap.port);
    try {
      assert.match(greeting, /^\* OK \[CAPABILITY IMAP4rev1 .*STARTTLS LOGINDISABLED\] /);
      assert.deepEqual(await client.command('a1', `LOGIN ${user.email} "${user.password}"`), [
        'a1 NO [PRIVACYREQUIRED] Sign in after STARTTLS, or on the implicit TLS port',
      ]);
      assert.match((await client.command('a2', 'AUTHENTICATE PLAIN'))[0], /^a2 NO \[PRIVACYREQUIRED\]/);
    } finally {
      client.close();
    }
  });

  test('what is pipelined behind STARTTLS in the clear is thrown away, not run under TLS', async () => {
    const { client } = await RawImapClient.connect(imap.port);
    try {
      client.write(`a1 STARTTLS\r\na2 LOGIN ${user.email} "${user.password}"\r\n`);
      assert.deepEqual(await client.until('a1'), ['a1 OK Begin TLS negotiation now']);
      await client.startTls();
      const [capabilities, done] = await client.command('a3', 'CAPABILITY');
      assert.match(capabilities, /AUTH=PLAIN/);
      assert.doesNotMatch(capabilities, /STARTTLS/);
      assert.equal(done, 'a3 OK CAPABILITY completed');
      assert.deepEqual(
        await client.command('a4', 'NAMESPACE'),
        ['a4 BAD NAMESPACE is not allowed before signing in'],
        'the LOGIN sent in the clear did not sign in',
      );
    } finally {
      client.close();
    }
  });

  test('a 70 KB line and malformed commands are answered BAD, and the session goes on', async () => {
    const { client } = await RawImapClient.connect(imap.port);
    try {
      assert.deepEqual(await client.command('a1', `NOOP ${'x'.repeat(70 * 1024)}`), ['a1 BAD line longer than 65536 bytes']);
      assert.deepEqual(await client.command('a2', 'LIST "unterminated'), ['a2 BAD unterminated quoted string']);
      assert.deepEqual(await client.command('a3', 'FROBNICATE'), ['a3 BAD Unknown command FROBNICATE']);
      assert.deepEqual(await client.command('a4', 'NOOP extra'), ['a4 BAD unexpected arguments at the end of the command']);
      client.write('*** NOOP\r\n');
      assert.equal(await client.line(), '* BAD expected a tag');
      assert.deepEqual(await client.command('a5', 'NOOP'), ['a5 OK NOOP completed']);
      assert.deepEqual(await client.command('a6', 'LOGOUT'), ['* BYE Letterbox IMAP signing off', 'a6 OK LOGOUT completed']);
      await client.closed();
    } finally {
      client.close();
    }
  });

  test('literals, LITERAL+, IDLE until DONE, and AUTHENTICATE cancelled', async () => {
    const client = await rawClientUnderTls();
    try {
      client.write(`a1 LOGIN {${Buffer.byteLength(user.email)}}\r\n`);
      assert.equal(await client.line(), '+ Ready for the literal');
      client.write(`${user.email} {${Buffer.byteLength(user.password)}+}\r\n${user.password}\r\n`);
      assert.match((await client.until('a1')).at(-1) ?? '', /^a1 OK \[CAPABILITY IMAP4rev1 .*\] Signed in$/);
      client.write('a2 IDLE\r\n');
      assert.equal(await client.line(), '+ idling');
      client.write('DONE\r\n');
      assert.deepEqual(await client.until('a2'), ['a2 OK IDLE terminated']);
      assert.deepEqual(await client.command('a3', 'STATUS "Secret" (MESSAGES)'), ['a3 NO [NONEXISTENT] No mailbox Secret']);
      assert.deepEqual(await client.command('a4', 'LIST (SPECIAL-USE) "" "*" RETURN (STATUS (MESSAGES UNSEEN UIDNEXT))'), [
        '* LIST (\\HasNoChildren \\Sent) "/" "Sent"',
        '* STATUS "Sent" (MESSAGES 0 UNSEEN 0)',
        '* LIST (\\HasNoChildren \\Drafts) "/" "Drafts"',
        '* STATUS "Drafts" (MESSAGES 0 UNSEEN 0)',
        '* LIST (\\HasNoChildren \\Junk) "/" "Spam"',
        '* STATUS "Spam" (MESSAGES 0 UNSEEN 0)',
        '* LIST (\\HasNoChildren \\Trash) "/" "Trash"',
        '* STATUS "Trash" (MESSAGES 0 UNSEEN 0)',
        'a4 OK LIST completed',
      ]);
    } finally {
      client.close();
    }
    const fresh = await rawClientUnderTls();
    try {
      fresh.write('c1 AUTHENTICATE PLAIN\r\n');
      assert.equal(await fresh.line(), '+ done');
      fresh.write('*\r\n');
      assert.deepEqual(await fresh.until('c1'), ['c1 BAD AUTHENTICATE cancelled']);
    } finally {
      fresh.close();
    }
  });

  /** A raw connection past STARTTLS, not signed in yet. */
  async function rawClientUnderTls(): Promise<RawImapClient> {
    const { client } = await RawImapClient.connect(imap.port);
    await client.command('tls', 'STARTTLS');
    await client.startTls();
    return client;
  }

  test('wrong passwords are refused and audited, and past the limit the right one is refused too', async () => {
    const victim = await createTestUser(db, 'guessed');
    const client = await rawClientUnderTls();
    try {
      for (let attempt = 1; attempt <= WRONG_PASSWORDS_ALLOWED; attempt++) {
        assert.deepEqual(await client.command(`w${attempt}`, `LOGIN ${victim.email} wrong`), [`w${attempt} NO [AUTHENTICATIONFAILED] Invalid credentials`]);
      }
      const [refused] = await client.command('r', `LOGIN ${victim.email} "${victim.password}"`);
      assert.match(refused, /^r NO \[AUTHENTICATIONFAILED\] Too many wrong passwords; try again in \d+ seconds$/);
      const { rows } = await db.sql.query<{ action: string; details: { protocol: string; reason?: string } }>(
        `SELECT action, details FROM audit_events WHERE target = $1 ORDER BY id`,
        [`user:${victim.id}`],
      );
      assert.deepEqual(
        rows.map((row) => [row.action, row.details.protocol, row.details.reason ?? null]),
        [...Array.from({ length: WRONG_PASSWORDS_ALLOWED }, () => ['auth.sign-in.failed', 'imap', 'wrong password']), ['auth.lockout', 'imap', null]],
      );
    } finally {
      client.close();
    }
  });

  test('an account with two-factor sign-in on is told to use an app password', async () => {
    const careful = await createTestUser(db, 'careful');
    await db.sql.query(`UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP', totp_enabled_at = now() WHERE id = $1`, [careful.id]);
    const client = flow({ auth: { user: careful.email, pass: careful.password } });
    await assert.rejects(client.connect(), (error: Error & { responseText?: string; serverResponseCode?: string }) => {
      assert.equal(error.serverResponseCode, 'AUTHENTICATIONFAILED');
      assert.match(error.responseText ?? '', /app password/);
      return true;
    });
  });
});
