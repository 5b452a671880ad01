import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ImapFlow } from 'imapflow';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailboxChanges, MailboxQueries, storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { loadImapConfig } from './imap.config';
import { startImap, type RunningImap } from './start-imap';
import { plaintextImapEnv } from './testing/plaintext-imap';
import { RawImapClient } from './testing/raw-imap-client';

describe('the IMAP app: CREATE, RENAME and DELETE change folders as the webmail does', () => {
  let db: Database;
  let imap: RunningImap;
  let user: TestUser;
  let client: ImapFlow;

  /** The user's folders as the API lists them to the webmail, by name, with their mail counts. */
  const apiFolders = async () => {
    const list = await new MailboxQueries(primaryOnly(db.sql)).list(user.id);
    assert.ok('items' in list);
    return new Map(list.items.map((mailbox) => [mailbox.name, mailbox]));
  };

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-folders');
    const folders = new MailboxChanges(db.sql, async () => true);
    await folders.lock(user.id, (await folders.create(user.id, 'Hidden')).id);
    const config = loadImapConfig(await plaintextImapEnv());
    imap = await startImap(config);
    client = new ImapFlow({
      host: '127.0.0.1',
      port: imap.port,
      secure: false,
      auth: { user: user.email, pass: user.password },
      logger: false,
      disableAutoIdle: true,
    });
    await client.connect();
  });

  after(async () => {
    await client?.logout();
    await imap?.close();
    await db?.close();
  });

  test('imapflow creates, renames and deletes a folder with a non-ASCII name; the API lists the same', async () => {
    const created = await client.mailboxCreate('Projekte 한글');
    assert.equal(created.created, true);
    assert.ok((await apiFolders()).get('Projekte 한글'));
    assert.ok((await client.list()).some((mailbox) => mailbox.path === 'Projekte 한글'));

    await client.mailboxRename('Projekte 한글', 'Archiv 2026');
    const renamed = await apiFolders();
    assert.equal(renamed.get('Projekte 한글'), undefined);
    const folder = renamed.get('Archiv 2026');
    assert.ok(folder);

    const eml = Buffer.from(`From: a@x.test\r\nTo: ${user.email}\r\nSubject: kept\r\n\r\nbody\r\n`);
    await storeMail(db, testBlobStore(), { userId: user.id, mailboxId: folder.id, eml });
    const trashBefore = (await apiFolders()).get('Trash')?.totalCount ?? 0;
    await client.mailboxDelete('Archiv 2026');
    const deleted = await apiFolders();
    assert.equal(deleted.get('Archiv 2026'), undefined);
    assert.equal(deleted.get('Trash')?.totalCount, trashBefore + 1, 'its mail went to Trash, as when the webmail deletes a folder');
    assert.ok(!(await client.list()).some((mailbox) => mailbox.path === 'Archiv 2026'));
  });

  test('answers NO with ALREADYEXISTS, NONEXISTENT and CANNOT where the webmail would refuse', async () => {
    const { client: raw } = await RawImapClient.connect(imap.port);
    try {
      await raw.command('a0', `LOGIN ${user.email} "${user.password}"`);
      assert.deepEqual(await raw.command('a1', 'CREATE "Taken"'), ['a1 OK CREATE completed']);
      assert.match((await raw.command('a2', 'CREATE "taken"'))[0], /^a2 NO \[ALREADYEXISTS\] /);
      assert.match((await raw.command('a3', 'CREATE "inbox"'))[0], /^a3 NO \[ALREADYEXISTS\] /);
      assert.match((await raw.command('a4', 'CREATE "Hidden"'))[0], /^a4 NO \[ALREADYEXISTS\] /);
      assert.match((await raw.command('a5', 'CREATE "a/b"'))[0], /^a5 NO \[CANNOT\] folders cannot hold folders/);
      assert.match((await raw.command('a6', 'CREATE " padded"'))[0], /^a6 NO \[CANNOT\] /);
      assert.deepEqual(await raw.command('a7', 'CREATE "Hinted/"'), ['a7 OK CREATE completed']);
      assert.ok((await apiFolders()).get('Hinted'));

      assert.match((await raw.command('b1', 'RENAME "Nowhere" "Else"'))[0], /^b1 NO \[NONEXISTENT\] /);
      assert.match((await raw.command('b2', 'RENAME "Hidden" "Shown"'))[0], /^b2 NO \[NONEXISTENT\] /);
      assert.match((await raw.command('b3', 'RENAME "Taken" "Sent"'))[0], /^b3 NO \[ALREADYEXISTS\] /);
      assert.deepEqual(await raw.command('b4', 'RENAME "Sent" "Outbox"'), ['b4 NO [CANNOT] "Sent" is a system folder and cannot be renamed']);
      assert.deepEqual(await raw.command('b5', 'RENAME INBOX "Old mail"'), ['b5 NO [CANNOT] "INBOX" is a system folder and cannot be renamed']);

      assert.match((await raw.command('c1', 'DELETE "Nowhere"'))[0], /^c1 NO \[NONEXISTENT\] /);
      assert.deepEqual(await raw.command('c2', 'DELETE "Trash"'), ['c2 NO [CANNOT] "Trash" is a system folder and cannot be deleted']);
      assert.deepEqual(await raw.command('c3', 'DELETE INBOX'), ['c3 NO [CANNOT] "INBOX" is a system folder and cannot be deleted']);
      assert.match((await raw.command('c4', 'DELETE "Hidden"'))[0], /^c4 NO \[NONEXISTENT\] /);
      assert.deepEqual(await raw.command('c5', 'DELETE "Taken"'), ['c5 OK DELETE completed']);

      const folders = await apiFolders();
      for (const name of ['Sent', 'Trash', 'Hidden', 'Hinted']) assert.ok(folders.get(name), name);
      assert.equal(folders.get('Taken'), undefined);
      assert.match((await raw.command('d1', 'CREATE'))[0], /^d1 BAD /);
    } finally {
      raw.close();
    }
  });
});
