import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startImap, type RunningImap } from './start-imap';
import { plaintextFlow, plaintextImapConfig } from './testing/plaintext-imap';

/** Bytes of every value, NULs among them: what only a literal8 may carry. */
const ATTACHMENT = randomBytes(300_000);
const TEXT = 'Grüße aus Köln: a line long enough that quoted-printable breaks it softly, and an equals sign =';

/** Quoted-printable with a soft break, written by hand as a mail client would. */
const QUOTED_TEXT = ['Gr=C3=BC=C3=9Fe aus K=C3=B6ln: a line long enough that quoted-printable bre=', 'aks it softly, and an equals sign =3D'].join('\r\n');

const EML = Buffer.from(
  [
    'From: Ann <ann@x.test>',
    'Subject: Binary',
    'Message-ID: <binary@x.test>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    QUOTED_TEXT,
    '--b1',
    'Content-Type: application/octet-stream; name="data.bin"',
    'Content-Disposition: attachment; filename="data.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    ...(ATTACHMENT.toString('base64').match(/.{1,76}/g) ?? []),
    '--b1',
    'Content-Type: application/octet-stream; name="old.uue"',
    'Content-Transfer-Encoding: x-uuencode',
    '',
    'begin 644 old',
    '--b1--',
    '',
  ].join('\r\n'),
);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the IMAP app: BINARY (RFC 3516), with real clients', () => {
  const blobs = testBlobStore();
  let db: Database;
  let imap: RunningImap;
  let user: TestUser;
  let uid: number;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-binary');
    const { id } = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: EML });
    const { rows } = await db.sql.query<{ uid: number }>('SELECT uid FROM mail_uids WHERE mail_id = $1', [id]);
    uid = Number(rows[0].uid);
    imap = await startImap(await plaintextImapConfig());
  });

  after(async () => {
    await imap.close();
    await db.close();
  });

  test('imapflow fetches a base64 attachment and a quoted-printable part decoded, with FETCH BINARY', async () => {
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      assert.ok(client.capabilities.has('BINARY'));
      await client.mailboxOpen('INBOX');
      const message = await client.fetchOne(String(uid), { bodyParts: ['1', '2'] }, { uid: true, binary: true });
      assert.ok(message);
      assert.deepEqual([...(message.binaryParts ?? [])].sort(), ['1', '2'], 'answered as BINARY');
      assert.equal(message.bodyParts?.get('1')?.toString('utf8'), TEXT);
      assert.ok(message.bodyParts?.get('2')?.equals(ATTACHMENT), 'the attachment, byte for byte');
    } finally {
      await client.logout();
    }
  });

  test("Python's imaplib: BINARY.SIZE, a literal8, a partial of decoded bytes, UNKNOWN-CTE (nothing marked read), and BINARY without PEEK setting \\Seen", async () => {
    const script = path.join(__dirname, 'testing', 'imaplib_binary.py');
    const { stdout } = await promisify(execFile)('python3', [script, String(imap.port), user.email, user.password, String(uid)], { maxBuffer: 16 * 1024 ** 2 });
    const result = JSON.parse(stdout) as Record<string, string & string[]>;
    assert.ok(result.capabilities.includes('BINARY'));
    const textLength = Buffer.byteLength(TEXT);
    assert.match(result.sizes, new RegExp(`^1 \\(UID ${uid} BINARY\\.SIZE\\[1\\] ${textLength} BINARY\\.SIZE\\[2\\] ${ATTACHMENT.length}\\)$`));
    assert.equal(result.whole_head, `1 (UID ${uid} BINARY[2] ~{${ATTACHMENT.length}}`);
    assert.equal(result.whole_sha256, sha256(ATTACHMENT));
    assert.equal(result.partial_head, `1 (UID ${uid} BINARY[2]<1000> ~{500}`);
    assert.ok(Buffer.from(result.partial, 'base64').equals(ATTACHMENT.subarray(1000, 1500)));
    assert.equal(result.unknown_cte[0], 'NO');
    assert.match(result.unknown_cte[1], /^\[UNKNOWN-CTE\] /);
    assert.match(result.flags_before, /FLAGS \(\)/, 'the refused FETCH marked nothing read');
    assert.equal(result.text, TEXT);
    assert.match(result.flags_after, /FLAGS \(\\Seen\)/);
  });

  test('imapflow APPENDs a message holding NULs as a literal8, and reads it back as it was', async () => {
    const body = Buffer.concat([Buffer.from('binary\0body '), randomBytes(5000), Buffer.from('\r\n')]);
    const message = Buffer.concat([
      Buffer.from('From: ann@x.test\r\nSubject: NULs\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\n\r\n'),
      body,
    ]);
    const client = plaintextFlow(imap.port, user);
    await client.connect();
    try {
      const appended = await client.append('INBOX', message);
      assert.ok(appended && appended.uid);
      await client.mailboxOpen('INBOX');
      const source = await client.fetchOne(String(appended.uid), { source: true }, { uid: true });
      assert.ok(source && source.source?.equals(message), 'stored as sent');
      const part = await client.fetchOne(String(appended.uid), { bodyParts: ['1'] }, { uid: true, binary: true });
      assert.ok(part && part.bodyParts?.get('1')?.equals(body), 'its body, NULs and all, as a literal8');
    } finally {
      await client.logout();
    }
  });
});
