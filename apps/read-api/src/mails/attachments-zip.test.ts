import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { referenceAttachments, referenceMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, unzip, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

/** A multipart/mixed mail of a text body and the given base64 parts. */
function mailWithParts(to: string, subject: string, parts: Array<{ headers: string[]; content: Buffer }>): Buffer {
  return Buffer.from(
    [
      'From: sender@example.test',
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <${randomUUID()}@example.test>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'The files are attached.',
      ...parts.flatMap(({ headers, content }) => ['--b', ...headers, 'Content-Transfer-Encoding: base64', '', content.toString('base64')]),
      '--b--',
      '',
    ].join('\r\n'),
  );
}

const attachmentPart = (name: string, type: string, content: Buffer) => ({
  headers: [`Content-Type: ${type}`, `Content-Disposition: attachment; filename="${name}"`],
  content,
});

describe('all of a mail’s attachments as one zip', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'zipper');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const get = (path: string, as = token) => fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${as}` } });
  const store = async (eml: Buffer) => (await storeMail(db, testBlobStore(), { userId: user.id, mailboxId: user.mailboxes.inbox, eml })).id;

  test('the medium reference mail: its two attachments, byte for byte, without the inline picture of its body', async () => {
    const id = await store(
      await referenceMail('medium', { from: { name: 'S', address: 's@example.test' }, to: [{ name: 'R', address: user.email }], subject: '분기 보고서 Q3' }),
    );
    const response = await get(`/v2/mails/${id}/attachments.zip`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="__ ___ Q3.zip"; filename*=UTF-8''${encodeURIComponent('분기 보고서 Q3.zip')}`,
    );
    const archive = Buffer.from(await response.arrayBuffer());
    assert.equal(Number(response.headers.get('content-length')), archive.length, 'the archive is as long as announced');
    const files = referenceAttachments('medium').filter((attachment) => attachment.disposition === 'attachment');
    const entries = await unzip(archive);
    assert.deepEqual(
      entries.map(({ name }) => name),
      files.map(({ filename }) => filename),
    );
    for (const [index, entry] of entries.entries()) assert.ok(entry.content.equals(files[index].content), entry.name);
  });

  test('names a sender chose are made safe to save: no paths, no controls, duplicates numbered', async () => {
    const parts = [
      ['../../etc/passwd', 'first'],
      // Escaped as a quoted string needs: the name is C:\Windows\report.pdf.
      ['C:\\\\Windows\\\\report.pdf', 'second'],
      ['report.pdf', 'third'],
      ['REPORT.PDF', 'fourth'],
      ['report (2).pdf', 'fifth'],
      ['/absolute/notes.txt', 'sixth'],
      ['invoice\u202Efdp.exe', 'seventh'],
      ['..', 'eighth'],
      ['con.txt', 'ninth'],
    ] as const;
    const id = await store(
      mailWithParts(
        user.email,
        '',
        parts.map(([name, content]) => attachmentPart(name, 'application/octet-stream', Buffer.from(content))),
      ),
    );
    const response = await get(`/v2/mails/${id}/attachments.zip`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="mail ${id}\\.zip"`));
    const entries = await unzip(Buffer.from(await response.arrayBuffer()));
    assert.deepEqual(
      entries.map(({ name, content }) => [name, content.toString()]),
      [
        ['passwd', 'first'],
        ['report.pdf', 'second'],
        ['report (2).pdf', 'third'],
        ['REPORT (3).PDF', 'fourth'],
        ['report (2) (2).pdf', 'fifth'],
        ['notes.txt', 'sixth'],
        ['invoice_fdp.exe', 'seventh'],
        ['attachment 9', 'eighth'],
        ['_con.txt', 'ninth'],
      ],
    );
  });

  test('an inline part without a Content-ID is a file like any other', async () => {
    const photo = Buffer.from('a photo, as a phone attaches it');
    const id = await store(
      mailWithParts(user.email, 'Photo', [{ headers: ['Content-Type: image/jpeg', 'Content-Disposition: inline; filename="IMG_0001.jpg"'], content: photo }]),
    );
    const entries = await unzip(Buffer.from(await (await get(`/v2/mails/${id}/attachments.zip`)).arrayBuffer()));
    assert.deepEqual(
      entries.map(({ name, content }) => [name, content.toString()]),
      [['IMG_0001.jpg', photo.toString()]],
    );
  });

  test('a mail without attachments is a 404 problem', async () => {
    const plain = await store(mailWithParts(user.email, 'Nothing attached', []));
    const picturesOnly = await store(
      mailWithParts(user.email, 'Only a picture of the body', [
        {
          headers: ['Content-Type: image/png', 'Content-ID: <logo@example.test>', 'Content-Disposition: inline; filename="logo.png"'],
          content: Buffer.from('png'),
        },
      ]),
    );
    for (const id of [plain, picturesOnly]) {
      const response = await get(`/v2/mails/${id}/attachments.zip`);
      assert.equal(response.status, 404);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
      assert.equal(((await response.json()) as { detail: string }).detail, `mail ${id} has no attachments`);
    }
  });

  test('another user’s mail is a 404 problem', async () => {
    const stranger = await createTestUser(db, 'zip-stranger');
    const id = await store(mailWithParts(user.email, 'Private', [attachmentPart('secret.txt', 'text/plain', Buffer.from('secret'))]));
    const response = await get(`/v2/mails/${id}/attachments.zip`, await api.login(stranger.email, stranger.password));
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
  });
});
