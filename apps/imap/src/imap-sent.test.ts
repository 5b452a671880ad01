import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { identitiesOf } from '@letterbox/accounts';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import { MailSubmission } from '@letterbox/mail-submission';
import { JobQueues } from '@letterbox/queue';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { SenderDirectory, SendOutbox, SendSubmission, SentCopies } from '@letterbox/sending';
import { createTestUser, testBlobStore, testDatabase, testSettings, unlinkKeys, type TestUser } from '@letterbox/testing';
import { startImap, type RunningImap } from './start-imap';
import { plaintextFlow, plaintextImapConfig } from './testing/plaintext-imap';
import { RawImapClient } from './testing/raw-imap-client';

describe('IMAP APPEND to Sent (the send keeps the copy), to Drafts (a server draft), and SEARCHRES', () => {
  const blobs = testBlobStore();
  let db: Database;
  let imap: RunningImap;
  let queuePrefix: string;
  let connection: RedisConnection;
  let queues: JobQueues;
  let submission: MailSubmission;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-sent');
    const config = await plaintextImapConfig();
    queuePrefix = config.QUEUE_PREFIX;
    imap = await startImap(config);
    connection = failFastConnection(testSettings(), 'test queues');
    queues = new JobQueues(connection, queuePrefix);
    // The submission app's use case, in process: no ingest worker runs, so a send's Sent copy stays pending.
    const sends = new SendSubmission({
      db,
      blobs,
      mails: new MailQueries(primaryOnly(db.sql)),
      outbox: new SendOutbox(db, queues),
      queuePrefix,
      defaultQuotaBytes: 10 ** 9,
    });
    const senders = new SenderDirectory((userIds) => identitiesOf(db, userIds), { maxSize: 10, maxWaitMs: 0 });
    submission = new MailSubmission(blobs, senders, sends, 10 ** 7);
  });

  after(async () => {
    await imap.close();
    await unlinkKeys(connection, `${queuePrefix}*`);
    await queues.close();
    await db.close();
  });

  /** A message as a mail client writes it, Bcc header and all, under a Message-ID of its own. */
  const written = (subject: string, messageId = `<${randomUUID()}@${user.domain}>`) => ({
    messageId,
    eml: Buffer.from(
      `From: ${user.email}\r\nTo: friend@elsewhere.test\r\nBcc: hidden@elsewhere.test\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n` +
        `Date: Sat, 28 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello.\r\n`,
    ),
  });

  const submit = async (eml: Buffer) => {
    const send = await submission.submit(
      { id: user.id, officeId: user.officeId, email: user.email },
      { mailFrom: user.email, recipients: ['friend@elsewhere.test', 'hidden@elsewhere.test'] },
      Readable.from(eml),
    );
    const { rows } = await db.sql.query<{ sent_mail_id: string; sent_copy_pending: boolean }>(
      'SELECT sent_mail_id, sent_copy_pending FROM outbound_sends WHERE id = $1',
      [send.id],
    );
    return { sendId: send.id, mailId: Number(rows[0].sent_mail_id), pending: rows[0].sent_copy_pending };
  };

  const sentMails = async () =>
    (
      await db.sql.query<{ id: string; uid: string }>(
        'SELECT m.id, u.uid FROM mails m JOIN mail_uids u ON u.mail_id = m.id WHERE u.mailbox_id = $1 ORDER BY u.uid',
        [user.mailboxes.sent],
      )
    ).rows.map((row) => ({ mailId: Number(row.id), uid: Number(row.uid) }));

  test('submitted, then APPENDed to Sent with its copy pending: the copy is stored then, the APPEND answers its UID, one mail in Sent, no Bcc', async () => {
    const before = (await sentMails()).length;
    const message = written('Submitted then appended');
    const send = await submit(message.eml);
    assert.equal(send.pending, true);
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      const appended = await client.append('Sent', message.eml, ['\\Seen']);
      const copy = (await sentMails()).find((mail) => mail.mailId === send.mailId);
      assert.ok(copy, 'the send’s copy is in Sent');
      assert.equal(appended && appended.uid, copy.uid);
      assert.equal((await sentMails()).length, before + 1);
      const { rows } = await db.sql.query<{ sent_copy_pending: boolean }>('SELECT sent_copy_pending FROM outbound_sends WHERE id = $1', [send.sendId]);
      assert.equal(rows[0].sent_copy_pending, false);
      // A client appending again (it lost the answer) finds the same copy.
      const again = await client.append('Sent', message.eml, ['\\Seen']);
      assert.equal(again && again.uid, copy.uid);
      assert.equal((await sentMails()).length, before + 1);
      await client.mailboxOpen('Sent');
      const fetched = await client.fetchOne(String(copy.uid), { source: true }, { uid: true });
      assert.ok(fetched);
      const source = fetched.source!.toString();
      assert.match(source, /Subject: Submitted then appended/);
      assert.doesNotMatch(source, /hidden@elsewhere\.test/, 'the Bcc stays out of the Sent copy');
    } finally {
      await client.logout();
    }
  });

  test('submitted, its copy stored by the worker first, then APPENDed: the APPEND answers the stored copy’s UID', async () => {
    const message = written('Stored first');
    const send = await submit(message.eml);
    await new SentCopies(db, blobs, queuePrefix).store([send.sendId]);
    const before = (await sentMails()).length;
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      const appended = await client.append('Sent', message.eml);
      assert.equal(appended && appended.uid, (await sentMails()).find((mail) => mail.mailId === send.mailId)?.uid);
      assert.equal((await sentMails()).length, before);
    } finally {
      await client.logout();
    }
  });

  test('the APPEND and the worker store a pending copy at once: one copy, the APPEND answers it', async () => {
    const message = written('Raced');
    const send = await submit(message.eml);
    const before = (await sentMails()).length;
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      const [appended] = await Promise.all([client.append('Sent', message.eml), new SentCopies(db, blobs, queuePrefix).store([send.sendId])]);
      assert.equal(appended && appended.uid, (await sentMails()).find((mail) => mail.mailId === send.mailId)?.uid);
      assert.equal((await sentMails()).length, before + 1);
    } finally {
      await client.logout();
    }
  });

  test('APPEND to Sent of mail sent elsewhere, or of another user’s send, is stored as the client wrote it', async () => {
    const other = await createTestUser(db, 'imap-sent-other');
    const theirs = written('Their send');
    await submission.submit(
      { id: other.id, officeId: other.officeId, email: other.email },
      { mailFrom: other.email, recipients: ['friend@elsewhere.test'] },
      Readable.from(Buffer.from(theirs.eml.toString().replace(user.email, other.email))),
    );
    const before = (await sentMails()).length;
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      for (const message of [written('Sent from another server'), theirs]) {
        const appended = await client.append('Sent', message.eml);
        const stored = (await sentMails()).at(-1);
        assert.equal(appended && appended.uid, stored?.uid);
        const record = await new MailQueries(primaryOnly(db.sql)).record(user.id, stored!.mailId);
        assert.equal(record.messageId, message.messageId);
      }
      assert.equal((await sentMails()).length, before + 2);
    } finally {
      await client.logout();
    }
  });

  test('APPEND to Drafts: the draft’s text without the message’s last line ending, its Bcc kept, a From not the user’s left out', async () => {
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      const draft = Buffer.from(
        `From: someone@else.test\r\nTo: a@x.test\r\nBcc: Blind <blind@x.test>, other@x.test\r\nSubject: Draft\r\n` +
          `Content-Type: text/plain; charset=utf-8\r\n\r\nHello\r\nsecond line\r\n\r\n`,
      );
      const appended = await client.append('Drafts', draft);
      assert.ok(appended && appended.uid);
      const { rows } = await db.sql.query<{ content: Record<string, unknown> }>('SELECT content FROM drafts WHERE mail_id = $1', [
        await draftMailId(appended.uid),
      ]);
      assert.deepEqual(rows[0]?.content, {
        to: ['a@x.test'],
        cc: [],
        bcc: ['blind@x.test', 'other@x.test'],
        subject: 'Draft',
        text: 'Hello\nsecond line\n',
        important: false,
        requestReadReceipt: false,
        attachments: [],
      });
    } finally {
      await client.logout();
    }
  });

  const draftMailId = async (uid: number) =>
    Number(
      (await db.sql.query<{ mail_id: string }>('SELECT mail_id FROM mail_uids WHERE mailbox_id = $1 AND uid = $2', [user.mailboxes.drafts, uid])).rows[0]
        .mail_id,
    );

  test('SEARCHRES: SEARCH RETURN (SAVE), then $ in FETCH, STORE, UID SEARCH, COPY; MIN saved alone; reset by SELECT', async () => {
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      for (const subject of ['alpha', 'beta', 'alpha again', 'gamma']) await client.append('INBOX', written(subject).eml);
    } finally {
      await client.logout();
    }
    const { client: raw } = await RawImapClient.connect(imap.port);
    try {
      await raw.command('a', `LOGIN ${user.email} "${user.password}"`);
      assert.match((await raw.command('b', 'CAPABILITY')).join('\n'), /^\* CAPABILITY .*\bSEARCHRES\b/m);
      await raw.command('c', 'SELECT INBOX');
      const saved = await raw.command('d', 'SEARCH RETURN (SAVE) SUBJECT alpha');
      assert.deepEqual(saved, ['d OK SEARCH completed, result saved']);
      const fetched = await raw.command('e', 'FETCH $ (UID FLAGS)');
      assert.deepEqual(
        fetched.filter((line) => line.startsWith('* ')),
        ['* 1 FETCH (UID 1 FLAGS ())', '* 3 FETCH (UID 3 FLAGS ())'],
      );
      assert.match((await raw.command('f', 'STORE $ +FLAGS.SILENT (\\Flagged)')).at(-1)!, /^f OK/);
      assert.deepEqual(await raw.command('g', 'UID SEARCH UID $ FLAGGED'), ['* SEARCH 1 3', 'g OK UID SEARCH completed']);
      assert.match((await raw.command('h', 'UID COPY $ Drafts')).at(-1)!, /^h OK \[COPYUID \d+ 1,3 \d+:\d+\]/);
      // An expunged message leaves $.
      await raw.command('h2', 'UID STORE 1 +FLAGS.SILENT (\\Deleted)');
      assert.deepEqual(await raw.command('h3', 'EXPUNGE'), ['* 1 EXPUNGE', 'h3 OK EXPUNGE completed']);
      assert.deepEqual(await raw.command('h4', 'UID SEARCH UID $'), ['* SEARCH 3', 'h4 OK UID SEARCH completed']);
      assert.deepEqual(await raw.command('i', 'SEARCH RETURN (SAVE MIN COUNT) SUBJECT alpha'), [
        '* ESEARCH (TAG "i") MIN 2 COUNT 1',
        'i OK SEARCH completed, result saved',
      ]);
      assert.deepEqual(await raw.command('j', 'UID SEARCH RETURN (SAVE MAX) ALL'), [
        '* ESEARCH (TAG "j") UID MAX 4',
        'j OK UID SEARCH completed, result saved',
      ]);
      assert.deepEqual(await raw.command('k', 'SEARCH $'), ['* SEARCH 3', 'k OK SEARCH completed']);
      // $ among a saving search's keys is the result before it; a saving search that fails leaves $ empty.
      assert.deepEqual(await raw.command('k2', 'SEARCH RETURN (SAVE ALL) OR $ SUBJECT beta'), [
        '* ESEARCH (TAG "k2") ALL 1,3',
        'k2 OK SEARCH completed, result saved',
      ]);
      assert.match((await raw.command('k3', 'SEARCH RETURN (SAVE) NOT HEADER X-Unknown x')).at(-1)!, /^k3 NO \[CANNOT\]/);
      assert.deepEqual(await raw.command('k4', 'SEARCH $'), ['* SEARCH', 'k4 OK SEARCH completed']);
      await raw.command('l', 'SELECT INBOX');
      assert.deepEqual(await raw.command('m', 'SEARCH $'), ['* SEARCH', 'm OK SEARCH completed']);
      assert.match((await raw.command('n', 'FETCH $,1 FLAGS')).at(-1)!, /^n BAD/);
    } finally {
      await raw.command('z', 'LOGOUT');
    }
  });
});
