import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ImapFlow } from 'imapflow';
import { primaryOnly, readRouting, type Database } from '@letterbox/db';
import { createMailAnnouncer, mailCreatedEvents, type MailAnnouncer } from '@letterbox/events';
import { ChangeMail, MailboxChanges, MailQueries, MailUpdates, storeMail } from '@letterbox/mail';
import { redisConnection, type RedisConnection } from '@letterbox/redis';
import {
  createTestUser,
  freePort,
  setTestQuota,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  waitFor,
  writeTestCertificate,
  type TestUser,
} from '@letterbox/testing';
import { loadImapConfig } from './imap.config';
import { startImap, type RunningImap } from './start-imap';
import { plaintextFlow, plaintextImapConfig } from './testing/plaintext-imap';
import { RawImapClient } from './testing/raw-imap-client';

const WRONG_PASSWORDS_ALLOWED = 3;

type FlowOptions = Partial<ConstructorParameters<typeof ImapFlow>[0]>;

/** imapflow signed in as the user on the local port, idling only when told to. */
function imapFlow(port: number, user: TestUser, options: FlowOptions): ImapFlow {
  return new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    auth: { user: user.email, pass: user.password },
    logger: false,
    disableAutoIdle: true,
    ...options,
  });
}

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

  const flow = (options: FlowOptions = {}) => imapFlow(imap.port, user, { doSTARTTLS: true, tls: { rejectUnauthorized: false }, ...options });

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
        '* STATUS "Sent" (MESSAGES 0 UNSEEN 0 UIDNEXT 1)',
        '* LIST (\\HasNoChildren \\Drafts) "/" "Drafts"',
        '* STATUS "Drafts" (MESSAGES 0 UNSEEN 0 UIDNEXT 1)',
        '* LIST (\\HasNoChildren \\Junk) "/" "Spam"',
        '* STATUS "Spam" (MESSAGES 0 UNSEEN 0 UIDNEXT 1)',
        '* LIST (\\HasNoChildren \\Trash) "/" "Trash"',
        '* STATUS "Trash" (MESSAGES 0 UNSEEN 0 UIDNEXT 1)',
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

describe('the IMAP app: selected mailboxes, FETCH, and changes from anywhere as they happen', () => {
  /** Mails in the inbox besides the multipart one (UID 1): copies of one stored mail, UIDs 2 to MANY + 1. */
  const MANY = 1000;
  const blobs = testBlobStore();
  let db: Database;
  let imap: RunningImap;
  let user: TestUser;
  let redis: RedisConnection;
  let announcer: MailAnnouncer;

  const PARTS = [
    'From: Ann <ann@x.test>',
    'Subject: Parts',
    'Message-ID: <parts@x.test>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello in part one',
    '--b1',
    'Content-Type: application/octet-stream; name="a.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    'AAECAwQF',
    '--b1--',
    '',
  ].join('\r\n');

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-read');
    const inbox = user.mailboxes.inbox;
    await storeMail(db, blobs, { userId: user.id, mailboxId: inbox, eml: Buffer.from(PARTS) });
    const eml = Buffer.from(`From: Bob <bob@x.test>\r\nTo: ${user.email}\r\nSubject: Many\r\nMessage-ID: <many@x.test>\r\n\r\nmany\r\n`);
    const template = await storeMail(db, blobs, { userId: user.id, mailboxId: inbox, eml });
    await db.sql.query(
      `WITH ids AS (SELECT nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series(2, $2::int))
       INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, subject, received_at, size, storage_key, layout)
       SELECT ids.id, ids.id, t.user_id, t.mailbox_id, '<many-' || ids.id || '@x.test>', t.from_address, t.subject, t.received_at, t.size, t.storage_key, t.layout
         FROM ids, mails t WHERE t.id = $1`,
      [template.id, MANY],
    );
    const config = await plaintextImapConfig();
    imap = await startImap(config);
    redis = redisConnection(config, 'fail-fast', 'imap test announcer');
    announcer = createMailAnnouncer({ redis, queuePrefix: config.QUEUE_PREFIX, writes: readRouting(db, redis, config.QUEUE_PREFIX) });
  });

  after(async () => {
    await imap.close();
    redis.disconnect();
    await db.close();
  });

  const flow = (options: Partial<ConstructorParameters<typeof ImapFlow>[0]> = {}) => plaintextFlow(imap.port, user, options);

  const mailIdOf = async (uid: number) =>
    Number(
      (await db.sql.query<{ mail_id: string }>('SELECT mail_id FROM mail_uids WHERE mailbox_id = $1 AND uid = $2', [user.mailboxes.inbox, uid])).rows[0]
        .mail_id,
    );

  const signedIn = async () => {
    const { client } = await RawImapClient.connect(imap.port);
    await client.command('in', `LOGIN ${user.email} "${user.password}"`);
    return client;
  };

  test('imapflow selects INBOX and fetches the envelopes and flags of 1,001 mails', async () => {
    const client = flow();
    await client.connect();
    try {
      for (const capability of ['CONDSTORE', 'QRESYNC', 'UNSELECT']) assert.ok(client.capabilities.has(capability), capability);
      const mailbox = await client.mailboxOpen('INBOX');
      assert.equal(mailbox.exists, MANY + 1);
      assert.equal(Number(mailbox.uidNext), MANY + 2);
      assert.ok(Number(mailbox.uidValidity) > 0);
      assert.ok(Number(mailbox.highestModseq) > 0);
      assert.ok(mailbox.permanentFlags?.has('\\*'));
      const fetched: { seq: number; uid: number; subject?: string; seen: boolean }[] = [];
      for await (const message of client.fetch('1:*', { uid: true, flags: true, envelope: true })) {
        fetched.push({ seq: message.seq, uid: message.uid, subject: message.envelope?.subject, seen: message.flags?.has('\\Seen') ?? false });
      }
      assert.equal(fetched.length, MANY + 1);
      assert.deepEqual(
        fetched.map((message) => [message.seq, message.uid]),
        Array.from({ length: MANY + 1 }, (_, index) => [index + 1, index + 1]),
      );
      assert.equal(fetched[0].subject, 'Parts');
      assert.ok(fetched.slice(1).every((message) => message.subject === 'Many' && !message.seen));
      const [last] = await client.fetchAll('*', { uid: true, size: true, internalDate: true, bodyStructure: true });
      assert.equal(last.uid, MANY + 1);
      assert.ok(Number(last.size) > 0);
      assert.equal(last.bodyStructure?.type, 'text/plain');
    } finally {
      await client.logout();
    }
  });

  test('a body part and a partial stream from storage; BODY[] without PEEK sets \\Seen, PEEK and EXAMINE do not', async () => {
    const client = await signedIn();
    try {
      const selected = await client.command('s', 'SELECT INBOX');
      assert.ok(selected.includes(`* ${MANY + 1} EXISTS`), selected.join('\n'));
      assert.ok(selected.includes('* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen $Forwarded \\*)] Flags the client may change'));
      assert.equal(selected.at(-1), 's OK [READ-WRITE] SELECT completed');
      const parts = (await client.command('f1', 'UID FETCH 1 (BODY.PEEK[1] BODY.PEEK[1]<6.2> BODY.PEEK[2.MIME] RFC822.SIZE)')).join('\r\n');
      assert.match(parts, /^\* 1 FETCH \(UID 1 BODY\[1\] \{17\}\r\nHello in part one BODY\[1\]<6> \{2\}\r\nin BODY\[2\.MIME\] \{\d+\}\r\n/);
      assert.match(parts, /RFC822\.SIZE \d+\)\r\nf1 OK UID FETCH completed$/);
      assert.deepEqual(await client.command('f2', 'FETCH 1 (FLAGS)'), ['* 1 FETCH (FLAGS ())', 'f2 OK FETCH completed']);
      const read = await client.command('f3', 'FETCH 2 (BODY[TEXT])');
      assert.deepEqual(read.slice(0, 3), ['* 2 FETCH (BODY[TEXT] {6}', 'many', ' FLAGS (\\Seen))']);
      assert.equal(read.at(-1), 'f3 OK FETCH completed');
      const seen = await db.sql.query<{ seen: boolean }>('SELECT seen FROM mails WHERE id = $1', [await mailIdOf(2)]);
      assert.equal(seen.rows[0].seen, true);
      const examined = await client.command('e', 'EXAMINE INBOX');
      assert.ok(examined.includes('* OK [CLOSED] Previous mailbox closed'));
      assert.ok(examined.includes('* OK [PERMANENTFLAGS ()] Flags the client may change'));
      assert.equal(examined.at(-1), 'e OK [READ-ONLY] EXAMINE completed');
      assert.deepEqual(await client.command('f4', 'UID FETCH 3 (RFC822.TEXT)'), [
        '* 3 FETCH (UID 3 RFC822.TEXT {6}',
        'many',
        ' FLAGS ())',
        'f4 OK UID FETCH completed',
      ]);
      assert.deepEqual(await client.command('c', 'UNSELECT'), ['c OK UNSELECT completed']);
      assert.deepEqual(await client.command('f5', 'FETCH 1 FLAGS'), ['f5 BAD FETCH is not allowed once signed in']);
    } finally {
      client.close();
    }
  });

  test('NOOP tells what changed: EXPUNGE for mail that left, EXISTS for new mail, FETCH FLAGS for changed flags', async () => {
    const client = await signedIn();
    try {
      await client.command('s', 'SELECT INBOX');
      const exists = MANY + 1;
      await db.sql.query('UPDATE mails SET flagged = true WHERE id = $1', [await mailIdOf(5)]);
      await db.sql.query('UPDATE mails SET deleted_at = now() WHERE id = $1', [await mailIdOf(4)]);
      const stored = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: Buffer.from(PARTS) });
      const newUid = Number((await db.sql.query<{ uid: string }>('SELECT uid FROM mail_uids WHERE mail_id = $1', [stored.id])).rows[0].uid);
      assert.deepEqual(await client.command('n1', 'NOOP'), [
        '* 4 EXPUNGE',
        '* 4 FETCH (UID 5 FLAGS (\\Flagged))',
        `* ${exists} EXISTS`,
        'n1 OK NOOP completed',
      ]);
      assert.deepEqual(await client.command('n2', `UID FETCH ${newUid} (UID)`), [`* ${exists} FETCH (UID ${newUid})`, 'n2 OK UID FETCH completed']);
      assert.deepEqual(await client.command('n3', 'STATUS INBOX (UIDNEXT MESSAGES)'), [
        `* STATUS "INBOX" (UIDNEXT ${newUid + 1} MESSAGES ${exists})`,
        'n3 OK STATUS completed',
      ]);
    } finally {
      client.close();
    }
  });

  test('FETCH holds an EXPUNGE back for a command that may send it; UID FETCH (CHANGEDSINCE n VANISHED) with QRESYNC', async () => {
    const client = await signedIn();
    try {
      assert.deepEqual(await client.command('e', 'ENABLE QRESYNC'), ['* ENABLED QRESYNC CONDSTORE', 'e OK ENABLE completed']);
      const selected = (await client.command('s', 'SELECT INBOX (CONDSTORE)')).join('\n');
      const modseq = Number(/\[HIGHESTMODSEQ (\d+)\]/.exec(selected)?.[1]);
      await db.sql.query('UPDATE mails SET flagged = true WHERE id = $1', [await mailIdOf(11)]);
      await db.sql.query('UPDATE mails SET deleted_at = now() WHERE id = $1', [await mailIdOf(12)]);
      const during = await client.command('f', 'FETCH 1 (UID)');
      assert.ok(!during.some((line) => /EXPUNGE|VANISHED/.test(line)), during.join('\n'));
      assert.ok(
        during.some((line) => /^\* \d+ FETCH \(UID 11 FLAGS \(\\Flagged\) MODSEQ \(\d+\)\)$/.test(line)),
        during.join('\n'),
      );
      const changed = await client.command('u', `UID FETCH 1:* (FLAGS) (CHANGEDSINCE ${modseq} VANISHED)`);
      assert.equal(changed[0], '* VANISHED (EARLIER) 12');
      assert.match(changed[1], /^\* \d+ FETCH \(UID 11 FLAGS \(\\Flagged\) MODSEQ \(\d+\)\)$/);
      assert.deepEqual(changed.slice(2), ['* VANISHED 12', 'u OK UID FETCH completed']);
      assert.deepEqual(await client.command('c', 'CLOSE'), ['c OK CLOSE completed']);
    } finally {
      client.close();
    }
  });

  test('an IDLE client hears of new mail from ingest and of a flag changed through the API within moments', async () => {
    const client = flow();
    await client.connect();
    const existsSeen: number[] = [];
    const flagsSeen: { uid: number; flags: string[] }[] = [];
    client.on('exists', (event: { count: number }) => existsSeen.push(event.count));
    client.on('flags', (event: { uid: number; flags: Set<string> }) => flagsSeen.push({ uid: event.uid, flags: [...event.flags] }));
    try {
      const before = (await client.mailboxOpen('INBOX')).exists;
      const idling = client.idle();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const stored = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: Buffer.from(PARTS) });
      await announcer.announce(mailCreatedEvents([{ userId: user.id, mailId: stored.id, mailboxId: user.mailboxes.inbox }]));
      await waitFor(() => existsSeen.includes(before + 1), { timeoutMs: 5000, what: 'EXISTS while idling' });
      await new ChangeMail(new MailUpdates(db), announcer).change(user.id, await mailIdOf(7), { flagged: true });
      await waitFor(() => flagsSeen.some((event) => event.uid === 7 && event.flags.includes('\\Flagged')), {
        timeoutMs: 5000,
        what: 'FETCH FLAGS while idling',
      });
      await client.logout();
      await idling.catch(() => undefined);
    } finally {
      client.close();
    }
  });

  test('QRESYNC after a reconnect: VANISHED (EARLIER) for the mail that left and FETCH for the flags changed since', async () => {
    const first = flow({ qresync: true });
    await first.connect();
    const known = await first.mailboxOpen('INBOX');
    await first.logout();
    await new ChangeMail(new MailUpdates(db), announcer).change(user.id, await mailIdOf(9), { seen: true });
    await new ChangeMail(new MailUpdates(db), announcer).delete(user.id, await mailIdOf(10));
    const second = flow({ qresync: true });
    const vanished: number[] = [];
    const changed: { uid: number; flags: string[] }[] = [];
    second.on('expunge', (event: { uid?: number; vanished: boolean }) => event.vanished && vanished.push(event.uid!));
    second.on('flags', (event: { uid: number; flags: Set<string> }) => changed.push({ uid: event.uid, flags: [...event.flags] }));
    await second.connect();
    try {
      assert.ok(second.enabled.has('QRESYNC'));
      const reopened = await second.mailboxOpen('INBOX', { uidValidity: known.uidValidity, changedSince: known.highestModseq } as never);
      assert.ok(Number(reopened.highestModseq) > Number(known.highestModseq));
      assert.deepEqual(vanished, [10]);
      assert.deepEqual(changed, [{ uid: 9, flags: ['\\Seen'] }]);
    } finally {
      await second.logout();
    }
  });

  test("Python's imaplib: SELECT, FETCH 1:* (FLAGS ENVELOPE), a body part, STATUS with UIDNEXT, UIDVALIDITY and HIGHESTMODSEQ", async () => {
    const script = path.join(__dirname, 'testing', 'imaplib_fetch.py');
    const { stdout } = await promisify(execFile)('python3', [script, String(imap.port), user.email, user.password], { maxBuffer: 16 * 1024 ** 2 });
    const result = JSON.parse(stdout) as { select: string[]; fetched: number; last: string; part: string; status: string };
    const exists = Number(result.select[1]);
    assert.equal(result.select[0], 'OK');
    assert.equal(result.fetched, exists);
    assert.match(result.last, new RegExp(`^${exists} \\(FLAGS \\([^)]*\\) ENVELOPE \\(`));
    assert.equal(result.part, 'Hello in part one');
    assert.match(result.status, new RegExp(`^"INBOX" \\(MESSAGES ${exists} UIDNEXT \\d+ UIDVALIDITY \\d+ HIGHESTMODSEQ \\d+\\)$`));
  });
});

describe('the IMAP app: STORE, COPY, MOVE, EXPUNGE and SEARCH as mail clients do them', () => {
  const blobs = testBlobStore();
  let db: Database;
  let imap: RunningImap;
  let user: TestUser;
  let archive: number;
  const KOREAN = '회의록';

  const mail = (subject: string, body: string) =>
    Buffer.from(
      `From: Ann <ann@x.test>\r\nTo: someone@x.test\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '')}@x.test>\r\n` +
        `Content-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`,
    );

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-write');
    archive = (await new MailboxChanges(db.sql, async () => true).create(user.id, 'Archive')).id;
    const bodies: Array<[string, string]> = [
      ['Zeppelin', 'The zeppelin leaves at noon.'],
      ['Meeting', `내일 ${KOREAN}을 공유합니다.`],
      ['Lunch', 'Sandwiches for everyone.'],
      ['Report', 'The quarterly report is attached.'],
      ['Invoice', 'Invoice number 42.'],
    ];
    for (const [subject, body] of bodies) await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: mail(subject, body) });
    const config = await plaintextImapConfig();
    imap = await startImap(config);
  });

  after(async () => {
    await imap.close();
    await db.close();
  });

  const flow = () => plaintextFlow(imap.port, user);

  const mailIdOf = async (mailboxId: number, uid: number) =>
    Number((await db.sql.query<{ mail_id: string }>('SELECT mail_id FROM mail_uids WHERE mailbox_id = $1 AND uid = $2', [mailboxId, uid])).rows[0].mail_id);

  test('imapflow: SEARCH a body word and a Korean word, flag a mail (the webmail reads it flagged), MOVE with COPYUID', async () => {
    const client = flow();
    await client.connect();
    try {
      for (const capability of ['UIDPLUS', 'MOVE', 'ESEARCH']) assert.ok(client.capabilities.has(capability), capability);
      await client.mailboxOpen('INBOX');
      assert.deepEqual(await client.search({ body: 'zeppelin' }, { uid: true }), [1]);
      assert.deepEqual(await client.search({ body: KOREAN }, { uid: true }), [2]);
      assert.deepEqual(await client.search({ subject: 'lunch', seen: false }, { uid: true }), [3]);
      assert.deepEqual(await client.search({ or: [{ uid: '1' }, { body: 'invoice' }] }, { uid: true }), [1, 5]);
      // A header the row does not keep, read from the header blocks of what the rest matched.
      assert.deepEqual(await client.search({ header: { 'Content-Type': 'TEXT/PLAIN' }, uid: '2:4' }, { uid: true }), [2, 3, 4]);

      assert.ok(await client.messageFlagsAdd('1', ['\\Flagged', '$Work'], { uid: true }));
      const record = await new MailQueries(primaryOnly(db.sql)).record(user.id, await mailIdOf(user.mailboxes.inbox, 1));
      assert.equal(record.flagged, true);
      const [fetched] = await client.fetchAll('1', { flags: true }, { uid: true });
      assert.deepEqual([...fetched.flags!].sort(), ['$Work', '\\Flagged']);
      assert.deepEqual(await client.search({ flagged: true }, { uid: true }), [1]);

      const moved = await client.messageMove('3:4', 'Archive', { uid: true });
      assert.ok(moved);
      assert.deepEqual(
        [...moved.uidMap!.entries()],
        [
          [3, 1],
          [4, 2],
        ],
      );
      assert.deepEqual(await client.search({ all: true }, { uid: true }), [1, 2, 5]);
      assert.equal((client.mailbox as { exists: number }).exists, 3);
      assert.deepEqual(await client.status('Archive', { messages: true, unseen: true }), { path: 'Archive', messages: 2, unseen: 2 });
      assert.deepEqual(await client.status('INBOX', { messages: true }), { path: 'INBOX', messages: 3 });
      const archived = await new MailQueries(primaryOnly(db.sql)).record(user.id, await mailIdOf(archive, 1));
      assert.equal(archived.subject, 'Lunch');
    } finally {
      await client.logout();
    }
  });

  test('imapflow: COPY keeps the original, \\Deleted and EXPUNGE delete for good; UID SEARCH RETURN answers ESEARCH', async () => {
    const client = flow();
    await client.connect();
    try {
      await client.mailboxOpen('INBOX');
      const copied = await client.messageCopy('5', 'Archive', { uid: true });
      assert.ok(copied);
      assert.deepEqual([...copied.uidMap!.entries()], [[5, 3]]);
      assert.deepEqual(await client.search({ all: true }, { uid: true }), [1, 2, 5]);
      const mailId = await mailIdOf(user.mailboxes.inbox, 5);
      assert.ok(await client.messageDelete('5', { uid: true }));
      assert.deepEqual(await client.search({ all: true }, { uid: true }), [1, 2]);
      const { rows } = await db.sql.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM mails WHERE id = $1', [mailId]);
      assert.ok(rows[0].deleted_at, 'deleted for good');
      assert.deepEqual(await client.status('Archive', { messages: true }), { path: 'Archive', messages: 3 });
    } finally {
      await client.logout();
    }
    const { client: raw } = await RawImapClient.connect(imap.port);
    try {
      await raw.command('a', `LOGIN ${user.email} "${user.password}"`);
      await raw.command('b', 'SELECT Archive');
      const esearch = await raw.command('c', 'UID SEARCH RETURN (MIN MAX COUNT ALL) UNSEEN');
      assert.deepEqual(esearch, ['* ESEARCH (TAG "c") UID MIN 1 MAX 3 COUNT 3 ALL 1:3', 'c OK UID SEARCH completed']);
      assert.deepEqual(await raw.command('d', 'SEARCH RETURN (COUNT) TEXT nothingmatcheshere'), ['* ESEARCH (TAG "d") COUNT 0', 'd OK SEARCH completed']);
      assert.deepEqual(await raw.command('e', 'SEARCH SUBJECT report'), ['* SEARCH 2', 'e OK SEARCH completed']);
      const stored = await raw.command('f', 'STORE 1 (UNCHANGEDSINCE 0) +FLAGS (\\Seen)');
      assert.equal(stored[stored.length - 1], 'f OK [MODIFIED 1] Some messages changed since UNCHANGEDSINCE');
    } finally {
      await raw.command('z', 'LOGOUT');
    }
  });

  test("Python's imaplib: UID SEARCH CHARSET UTF-8 for a Korean word, UID STORE +FLAGS, UID COPY, EXPUNGE", async () => {
    const script = path.join(__dirname, 'testing', 'imaplib_write.py');
    const { stdout } = await promisify(execFile)('python3', [script, String(imap.port), user.email, user.password, KOREAN]);
    const result = JSON.parse(stdout) as { korean: string; unseen: string; store: [string, string[]]; copy: string; expunge: [string, string[]] };
    assert.equal(result.korean, '2');
    assert.equal(result.unseen, '1 2');
    assert.equal(result.store[0], 'OK');
    assert.match(result.store[1].join(' '), /UID 2 FLAGS \(\\Flagged Work\)/);
    assert.equal(result.copy, 'OK');
    assert.deepEqual(result.expunge, ['OK', ['2']]);
    assert.deepEqual(await messagesIn(user.mailboxes.inbox), [1]);
  });

  test('imapflow: APPEND to Drafts (a server draft) and Sent with flags and an internal date answers APPENDUID; past the quota, OVERQUOTA', async () => {
    const client = flow();
    await client.connect();
    try {
      const draft = mail('Draft in progress', 'Not finished yet.');
      const appended = await client.append('Drafts', draft, ['\\Seen', '$Work'], new Date('2026-10-01T08:30:00Z'));
      assert.ok(appended && appended.uid === 1 && appended.uidValidity);
      const draftId = await mailIdOf(user.mailboxes.drafts, 1);
      const record = await new MailQueries(primaryOnly(db.sql)).record(user.id, draftId);
      assert.deepEqual(
        [record.mailboxId, record.subject, record.seen, record.receivedAt],
        [user.mailboxes.drafts, 'Draft in progress', true, '2026-10-01T08:30:00.000Z'],
      );
      // The webmail's editor opens it: a draft row, as its own drafts have (the From, not the user's, left out).
      const { rows: drafts } = await db.sql.query<{ content: Record<string, unknown> }>('SELECT content FROM drafts WHERE mail_id = $1 AND user_id = $2', [
        draftId,
        user.id,
      ]);
      assert.deepEqual(drafts[0]?.content, {
        to: ['someone@x.test'],
        cc: [],
        bcc: [],
        subject: 'Draft in progress',
        text: 'Not finished yet.',
        important: false,
        requestReadReceipt: false,
        attachments: [],
      });
      const sent = await client.append('Sent', mail('Sent from a phone', 'Sent.'), ['\\Seen']);
      assert.ok(sent && sent.uid === 1);
      await client.mailboxOpen('Drafts');
      const [fetched] = await client.fetchAll('1', { flags: true }, { uid: true });
      assert.deepEqual([...fetched.flags!].sort(), ['$Work', '\\Draft', '\\Seen']);
      await setTestQuota(db, user.id, 1);
      await assert.rejects(client.append('INBOX', mail('Too much', 'x')), (error: { serverResponseCode?: string }) => error.serverResponseCode === 'OVERQUOTA');
    } finally {
      await setTestQuota(db, user.id, null);
      await client.logout();
    }
    const { client: raw } = await RawImapClient.connect(imap.port);
    try {
      await raw.command('a', `LOGIN ${user.email} "${user.password}"`);
      assert.match((await raw.command('b', `APPEND INBOX {${100 * 1024 ** 2}}`)).join('\n'), /^b NO \[TOOBIG\]/m);
      const streamed = mail('Streamed', 'Sent with LITERAL+.');
      raw.write(`c APPEND INBOX (\\Flagged) {${streamed.length}+}\r\n`);
      raw.write(Buffer.concat([streamed, Buffer.from('\r\n')]));
      assert.match((await raw.until('c')).join('\n'), /^c OK \[APPENDUID \d+ \d+\] APPEND completed/m);
    } finally {
      await raw.command('z', 'LOGOUT');
    }
  });

  const messagesIn = async (mailboxId: number) =>
    (await db.sql.query<{ uid: string }>('SELECT uid FROM mail_uids WHERE mailbox_id = $1 ORDER BY uid', [mailboxId])).rows.map((row) => Number(row.uid));
});
