import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { referenceAttachments, referenceMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const SIZES = ['small', 'medium', 'large'] as const;

interface MailDetail {
  id: number;
  subject: string;
  text: string;
  html: string | null;
  headers: Array<{ name: string; value: string }>;
  attachments: Array<{ partId: string; filename: string; contentType: string; size: number; disposition: string; url: string }>;
}

describe('reading a mail', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  const emls = new Map<string, Buffer>();
  const ids = new Map<string, number>();

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    user = await createTestUser(db, 'reader');
    for (const size of SIZES) {
      const eml = await referenceMail(size, {
        from: { name: '김민준 🚀', address: 'minjun@example.test' },
        to: [{ name: 'Reader', address: user.email }],
        subject: `Reference ${size} 참고`,
      });
      emls.set(size, eml);
      ids.set(size, (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml })).id);
    }
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

  for (const size of SIZES) {
    test(`${size}: headers, bodies and attachment metadata`, async () => {
      const response = await get(`/v2/mails/${ids.get(size)}`);
      assert.equal(response.status, 200);
      const mail = (await response.json()) as MailDetail;
      assert.equal(mail.subject, `Reference ${size} 참고`);
      assert.ok(mail.headers.some((header) => header.name === 'From' && header.value.includes('김민준 🚀')));
      assert.ok(mail.text.length > 100, 'has a text body');
      assert.ok(mail.html && mail.html.includes('<'), 'has an HTML body');
      assert.ok(!/<script/i.test(mail.html ?? ''), 'the HTML is sanitized');
      const expected = referenceAttachments(size);
      assert.deepEqual(
        mail.attachments.map(({ filename, contentType, size: bytes, disposition }) => ({ filename, contentType, size: bytes, disposition })),
        expected.map(({ filename, contentType, content, disposition }) => ({ filename, contentType, size: content.length, disposition })),
      );
    });

    test(`${size}: every attachment downloads byte-identical to what was composed`, async () => {
      const mail = (await (await get(`/v2/mails/${ids.get(size)}`)).json()) as MailDetail;
      for (const [index, attachment] of mail.attachments.entries()) {
        const response = await get(attachment.url);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), attachment.contentType);
        assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="[^"]*"; filename\*=UTF-8''/);
        const body = Buffer.from(await response.arrayBuffer());
        const expected = referenceAttachments(size)[index].content;
        assert.equal(body.length, expected.length);
        assert.equal(createHash('sha256').update(body).digest('hex'), createHash('sha256').update(expected).digest('hex'));
      }
    });

    test(`${size}: raw EML is byte-identical to what was stored`, async () => {
      const response = await get(`/v2/mails/${ids.get(size)}/raw`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'message/rfc822');
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(emls.get(size) as Buffer));
    });
  }

  test('raw EML honours byte ranges', async () => {
    const eml = emls.get('medium') as Buffer;
    const id = ids.get('medium');
    const first = await get(`/v2/mails/${id}/raw`, { range: 'bytes=0-99' });
    assert.equal(first.status, 206);
    assert.equal(first.headers.get('content-range'), `bytes 0-99/${eml.length}`);
    assert.ok(Buffer.from(await first.arrayBuffer()).equals(eml.subarray(0, 100)));
    const tail = await get(`/v2/mails/${id}/raw`, { range: 'bytes=-500' });
    assert.equal(tail.status, 206);
    assert.ok(Buffer.from(await tail.arrayBuffer()).equals(eml.subarray(eml.length - 500)));
    const middle = await get(`/v2/mails/${id}/raw`, { range: `bytes=1000-` });
    assert.ok(Buffer.from(await middle.arrayBuffer()).equals(eml.subarray(1000)));
    const beyond = await get(`/v2/mails/${id}/raw`, { range: `bytes=${eml.length}-` });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${eml.length}`);
  });

  test('inline images are pointed at their attachment route', async () => {
    const mail = (await (await get(`/v2/mails/${ids.get('medium')}`)).json()) as MailDetail;
    const inline = mail.attachments.find((attachment) => attachment.disposition === 'inline');
    assert.ok(inline, 'the medium mail has an inline image');
    assert.ok(mail.html?.includes(`src="${inline.url}"`), 'cid: image rewritten to the attachment URL');
  });

  test('an attachment is shown inline only when it runs no script, and always sandboxed', async () => {
    const part = (type: string, name: string, body: string) => [
      '--b',
      `Content-Type: ${type}; name="${name}"`,
      `Content-Disposition: attachment; filename="${name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(body).toString('base64'),
    ];
    const eml = Buffer.from(
      [
        'From: sender@example.test',
        `To: ${user.email}`,
        'Subject: Types chosen by the sender',
        'Message-ID: <inline-types@example.test>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        ...part('text/html', 'page.html', '<script>alert(1)</script>'),
        ...part('image/svg+xml', 'logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        ...part('image/png', 'photo.png', 'not really a png'),
        ...part('application/pdf', 'paper.pdf', '%PDF-1.4'),
        ...part('text/plain', 'notes.txt', 'plain words'),
        '--b--',
        '',
      ].join('\r\n'),
    );
    const id = (await storeMail(db, testBlobStore(), { userId: user.id, mailboxId: user.mailboxes.inbox, eml })).id;
    const mail = (await (await get(`/v2/mails/${id}`)).json()) as MailDetail;
    const shown = new Map<string, string>();
    for (const attachment of mail.attachments) {
      const response = await get(`/v2/mails/${id}/attachments/${attachment.partId}?disposition=inline`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-security-policy'), 'sandbox', attachment.filename);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', attachment.filename);
      shown.set(attachment.filename, (response.headers.get('content-disposition') ?? '').split(';')[0]);
      await response.arrayBuffer();
    }
    assert.deepEqual(Object.fromEntries(shown), {
      'page.html': 'attachment',
      'logo.svg': 'attachment',
      'photo.png': 'inline',
      'paper.pdf': 'inline',
      'notes.txt': 'inline',
    });
  });

  test('an unknown part is a 404 problem', async () => {
    const response = await get(`/v2/mails/${ids.get('small')}/attachments/9`);
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('content-type'), 'application/problem+json; charset=utf-8');
  });
});
