import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Database } from '@letterbox/db';
import { MailboxChanges, storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { loadImapConfig } from './imap.config';
import { startImap, type RunningImap } from './start-imap';
import { plaintextImapEnv } from './testing/plaintext-imap';
import { RawImapClient } from './testing/raw-imap-client';

interface Message {
  subject: string;
  from: string;
  to: string;
  cc?: string;
  date?: string;
  receivedAt: string;
  bodyBytes: number;
  messageId?: string;
  inReplyTo?: string;
}

/**
 * The mailbox, after its first message is expunged (sequence number n is UID n + 1). Sent: 1 (no Date: its arrival,
 * 28 Feb), 3, 4, 2, 5; arrived 1, 2, 4, 3, 5; sizes in order; 2 and 5 answer 1.
 */
const MESSAGES: Message[] = [
  { subject: 'Gone', from: 'gone@x.test', to: 'gone@x.test', receivedAt: '2026-02-01T00:00:00Z', bodyBytes: 1 },
  { subject: 'Plans', from: 'dave@x.test', to: 'yann@x.test', receivedAt: '2026-02-28T09:00:00Z', bodyBytes: 1, messageId: '<plans@x.test>' },
  {
    subject: 'Re: Plans',
    from: 'Zed <carol@x.test>',
    to: 'Yann <yann@x.test>',
    cc: 'b@x.test',
    date: 'Tue, 03 Mar 2026 10:00:00 +0000',
    receivedAt: '2026-03-10T00:00:00Z',
    bodyBytes: 300,
    inReplyTo: '<plans@x.test>',
  },
  {
    subject: '[team] Apple',
    from: 'alice@x.test',
    to: 'xavier@x.test',
    cc: 'c@x.test',
    date: 'Sun, 01 Mar 2026 10:00:00 +0000',
    receivedAt: '2026-03-12T00:00:00Z',
    bodyBytes: 600,
  },
  {
    subject: 'cherry',
    from: 'Adam <bob@x.test>',
    to: 'walter@x.test',
    date: 'Mon, 02 Mar 2026 10:00:00 +0000',
    receivedAt: '2026-03-11T00:00:00Z',
    bodyBytes: 900,
  },
  {
    subject: 'Changed topic',
    from: 'erin@x.test',
    to: 'yann@x.test',
    date: 'Wed, 04 Mar 2026 10:00:00 +0000',
    receivedAt: '2026-03-13T00:00:00Z',
    bodyBytes: 1200,
    inReplyTo: '<plans@x.test>',
  },
];

function eml(message: Message, index: number): Buffer {
  const headers = [
    `From: ${message.from}`,
    `To: ${message.to}`,
    ...(message.cc ? [`Cc: ${message.cc}`] : []),
    `Subject: ${message.subject}`,
    ...(message.date ? [`Date: ${message.date}`] : []),
    `Message-ID: ${message.messageId ?? `<sort-${index}@x.test>`}`,
    ...(message.inReplyTo ? [`In-Reply-To: ${message.inReplyTo}`] : []),
  ];
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${'x'.repeat(message.bodyBytes)}\r\n`);
}

describe('the IMAP app: SORT and THREAD (RFC 5256), and SENT* by the Date header', () => {
  let db: Database;
  let imap: RunningImap;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-sort');
    const mailboxId = (await new MailboxChanges(db.sql, async () => true).create(user.id, 'Sorting')).id;
    for (const [index, message] of MESSAGES.entries())
      await storeMail(db, testBlobStore(), { userId: user.id, mailboxId, eml: eml(message, index), receivedAt: new Date(message.receivedAt) });
    imap = await startImap(loadImapConfig(await plaintextImapEnv()));
  });

  after(async () => {
    await imap?.close();
    await db?.close();
  });

  test("Python's imaplib: SORT by every key and REVERSE, with a search key, UID SORT, THREAD by both algorithms, SENTSINCE", async () => {
    const script = path.join(__dirname, 'testing', 'imaplib_sort.py');
    const { stdout } = await promisify(execFile)('python3', [script, String(imap.port), user.email, user.password, 'Sorting']);
    assert.deepEqual(JSON.parse(stdout), {
      ARRIVAL: '1 2 4 3 5',
      DATE: '1 3 4 2 5',
      'REVERSE DATE': '5 2 4 3 1',
      SIZE: '1 2 3 4 5',
      SUBJECT: '3 5 4 1 2',
      FROM: '3 4 2 1 5',
      TO: '4 3 1 2 5',
      CC: '1 4 5 2 3',
      DISPLAYFROM: '4 3 1 5 2',
      DISPLAYTO: '4 3 2 1 5',
      'TO REVERSE SIZE': '4 3 5 2 1',
      'size sent since': '2 4 5',
      'uid reverse arrival': '6 4 5 3 2',
      orderedsubject: '(1 2)(3)(4)(5)',
      references: '(1 (2)(5))(3)(4)',
      'uid references': '(2 (3)(6))(4)(5)',
      sentsince: '2 4 5',
      sentbefore: '1',
      senton: '3',
    });
  });

  test('capabilities SORT, SORT=DISPLAY and THREAD=*; empty answers; another charset is NO [BADCHARSET]; a bad criterion BAD', async () => {
    const { client } = await RawImapClient.connect(imap.port);
    try {
      await client.command('a', `LOGIN ${user.email} "${user.password}"`);
      const [capability] = await client.command('b', 'CAPABILITY');
      for (const name of ['SORT', 'SORT=DISPLAY', 'THREAD=ORDEREDSUBJECT', 'THREAD=REFERENCES']) assert.ok(capability.split(' ').includes(name), name);
      await client.command('c', 'SELECT Sorting');
      assert.deepEqual(await client.command('d', 'SORT (DATE) UTF-8 SUBJECT nothing-like-this'), ['* SORT', 'd OK SORT completed']);
      assert.deepEqual(await client.command('e', 'UID THREAD REFERENCES UTF-8 SUBJECT nothing-like-this'), ['* THREAD', 'e OK UID THREAD completed']);
      assert.deepEqual(await client.command('f', 'SORT (DATE) KOI8-R ALL'), ['f NO [BADCHARSET (UTF-8 US-ASCII)] charset KOI8-R is not supported']);
      assert.deepEqual(await client.command('g', 'THREAD REFERENCES ISO-8859-1 ALL'), [
        'g NO [BADCHARSET (UTF-8 US-ASCII)] charset ISO-8859-1 is not supported',
      ]);
      assert.match((await client.command('h', 'SORT (COLOR) UTF-8 ALL')).join('\n'), /^h BAD /m);
      assert.deepEqual(await client.command('i', 'SORT (SIZE) UTF-8 MODSEQ 1 SENTON 1-Mar-2026'), [
        `* SORT 3 (MODSEQ ${await highestModseq()})`,
        'i OK SORT completed',
      ]);
    } finally {
      await client.command('z', 'LOGOUT');
    }
  });

  const highestModseq = async () =>
    Number(
      (
        await db.sql.query<{ modseq: string }>(
          `SELECT u.modseq FROM mail_uids u JOIN mailboxes b ON b.id = u.mailbox_id WHERE b.user_id = $1 AND b.name = 'Sorting' AND u.uid = 4`,
          [user.id],
        )
      ).rows[0].modseq,
    );
});
