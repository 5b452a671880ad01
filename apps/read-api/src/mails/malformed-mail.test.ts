import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rm, truncate } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { malformedMails, randomMail, referenceMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, testSettings, type TestUser, withFaultsExpected } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
/** Long enough that only a hung request reaches it; nothing here measures speed. */
const HANG = 15_000;

interface MailDetail {
  id: number;
  subject: string;
  from: { name: string; address: string };
  text: string;
  html: string | null;
  truncated: boolean;
  headers: Array<{ name: string; value: string }>;
  attachments: Array<{ partId: string; filename: string; contentType: string; size: number; disposition: string; url: string }>;
}

describe('malformed mail is shown, never a server error', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  const cases = malformedMails();
  const stored = new Map<string, number | Error>();

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    user = await createTestUser(db, 'malformed');
    for (const { name, eml } of cases) {
      try {
        stored.set(name, (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml })).id);
      } catch (error) {
        stored.set(name, error as Error);
      }
    }
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const get = (urlPath: string) => fetch(`${api.url}${urlPath}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(HANG) });

  function idOf(name: string): number {
    const id = stored.get(name);
    if (id instanceof Error) assert.fail(`storeMail failed on ${name}: ${id.stack}`);
    assert.equal(typeof id, 'number');
    return id as number;
  }

  async function read(name: string): Promise<MailDetail> {
    const response = await get(`/v2/mails/${idOf(name)}`);
    const text = await response.text();
    assert.equal(response.status, 200, `${name}: ${text}`);
    return JSON.parse(text) as MailDetail;
  }

  test('the list of cases is the one this test was written for', () => {
    assert.ok(cases.length >= 12, `${cases.length} cases`);
  });

  for (const { name, eml } of cases) {
    describe(name, () => {
      test('stores', () => {
        idOf(name);
      });

      test('reads with 200: headers, text, sanitized html and attachment metadata', async () => {
        const mail = await read(name);
        assert.equal(mail.id, idOf(name));
        assert.equal(typeof mail.subject, 'string');
        assert.equal(typeof mail.text, 'string');
        assert.ok(mail.html === null || typeof mail.html === 'string');
        assert.ok(!/<script/i.test(mail.html ?? ''));
        assert.ok(Array.isArray(mail.headers));
        assert.ok(Array.isArray(mail.attachments));
        assert.ok(!mail.text.includes('\ufffd\ufffd\ufffd'), 'text is not a run of replacement characters');
      });

      test('raw EML is byte-identical to what was stored', async () => {
        const response = await get(`/v2/mails/${idOf(name)}/raw`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'message/rfc822');
        assert.equal(Number(response.headers.get('content-length')), eml.length);
        assert.ok(Buffer.from(await response.arrayBuffer()).equals(eml));
      });

      test('every listed attachment downloads with 200 and its listed size', async () => {
        const mail = await read(name);
        for (const attachment of mail.attachments) {
          const response = await get(attachment.url);
          assert.equal(response.status, 200, `${attachment.partId}: ${response.status}`);
          assert.equal(response.headers.get('content-type'), attachment.contentType);
          const body = Buffer.from(await response.arrayBuffer());
          assert.equal(body.length, attachment.size, `part ${attachment.partId}`);
        }
      });
    });
  }

  test('what is recoverable is recovered', async () => {
    const subjectOf = async (name: string) => (await read(name)).subject;
    assert.match((await read('missing-closing-boundary')).text, /Plain version/);
    assert.match((await read('missing-closing-boundary')).html ?? '', /HTML version/);
    assert.match((await read('no-content-type')).text, /RFC 2045/);
    assert.match((await read('invalid-base64')).text, /하지만 읽을 수 있어요/);
    assert.match((await read('unknown-charset')).text, /Café ☕ 카페 喫茶店/);
    assert.match((await read('lf-line-endings')).text, /줄바꿈이 LF 뿐입니다/);
    assert.match((await read('deeply-nested-multipart')).text, /bottom/);
    assert.match((await read('raw-euc-kr-headers')).text, /회의 자료를 보내 드립니다/);
    assert.equal(await subjectOf('headers-only'), 'Nothing after the headers');
    const truncated = await read('truncated-base64-attachment');
    assert.deepEqual(
      truncated.attachments.map((attachment) => attachment.filename),
      ['report.pdf'],
    );
    const forwarded = await read('attached-message-rfc822');
    assert.deepEqual(
      forwarded.attachments.map((attachment) => attachment.contentType),
      ['message/rfc822'],
    );
    const empty = await read('empty');
    assert.deepEqual([empty.subject, empty.text, empty.attachments], ['', '', []]);
  });

  test('raw 8-bit EUC-KR headers are shown in Korean', async () => {
    const mail = await read('raw-euc-kr-headers');
    assert.equal(mail.subject, '안녕하세요, 회의 자료입니다');
    assert.equal(mail.from.name, '김민준');
  });

  test('the malformed mails are listed like any other', async () => {
    const response = await get(`/v2/mails?mailboxId=${user.mailboxes.inbox}&limit=100&with=attachments`);
    assert.equal(response.status, 200);
    const page = (await response.json()) as { items: Array<{ id: number }>; total: number };
    const ids = [...stored.values()].filter((id): id is number => typeof id === 'number');
    assert.deepEqual(
      page.items.map((item) => item.id).sort((a, b) => a - b),
      [...ids].sort((a, b) => a - b),
    );
  });

  describe('a mail whose stored file is gone', () => {
    let goneId: number;
    let goneParts: string[];
    let intactId: number;

    before(async () => {
      const blobs = testBlobStore();
      const to = [{ name: 'Malformed', address: user.email }];
      // A subject of its own gives the EML a storage key no other mail shares.
      const eml = await referenceMail('medium', { from: { name: 'Gone', address: 'gone@example.test' }, to, subject: `Gone ${randomUUID()}` });
      const gone = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
      goneId = gone.id;
      goneParts = (await db.prisma.attachment.findMany({ where: { mailId: BigInt(goneId) }, select: { partId: true } })).map((part) => part.partId);
      intactId = (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: await randomMail(6060, { to }) })).id;
      const key = gone.storageKey;
      await rm(path.join(testSettings().STORAGE_DIR, key.slice(0, 2), key.slice(2, 4), key));
    });

    const paths = () => [`/v2/mails/${goneId}`, `/v2/mails/${goneId}/raw`, ...goneParts.map((partId) => `/v2/mails/${goneId}/attachments/${partId}`)];

    test('reading, raw and attachments each answer a 500 problem, promptly and whole', async () =>
      withFaultsExpected(async () => {
        assert.ok(goneParts.length >= 2);
        for (const urlPath of [...paths(), `/v2/mails/${goneId}/raw`]) {
          const response = await get(urlPath);
          const text = await response.text();
          assert.equal(response.status, 500, `${urlPath}: ${text}`);
          assert.equal(response.headers.get('content-type'), PROBLEM_JSON, urlPath);
          const problem = JSON.parse(text) as { status: number; detail: string };
          assert.equal(problem.status, 500);
          assert.ok(!problem.detail.includes(testSettings().STORAGE_DIR), 'no storage path in the answer');
          assert.ok(!/ENOENT|blob/i.test(problem.detail), 'no internals in the answer');
        }
      }));

    test('a ranged raw request of the missing file is a 500 problem too', async () =>
      withFaultsExpected(async () => {
        const response = await fetch(`${api.url}/v2/mails/${goneId}/raw`, {
          headers: { authorization: `Bearer ${token}`, range: 'bytes=10-99' },
          signal: AbortSignal.timeout(HANG),
        });
        await response.arrayBuffer();
        assert.equal(response.status, 500);
      }));

    test('the server keeps serving: other mail, concurrent requests and health', async () =>
      withFaultsExpected(async () => {
        const answers = await Promise.all([...paths(), ...paths()].map((urlPath) => get(urlPath)));
        for (const response of answers) {
          await response.arrayBuffer();
          assert.equal(response.status, 500);
        }
        assert.equal((await get(`/v2/mails/${intactId}`)).status, 200);
        const raw = await get(`/v2/mails/${intactId}/raw`);
        assert.equal(raw.status, 200);
        assert.ok((await raw.arrayBuffer()).byteLength > 0);
        assert.equal((await get('/health')).status, 200);
        const list = await get(`/v2/mails?mailboxId=${user.mailboxes.inbox}&limit=100`);
        assert.equal(list.status, 200, 'the list does not read storage and still shows the mail');
        assert.ok(((await list.json()) as { items: Array<{ id: number }> }).items.some((item) => item.id === goneId));
      }));
  });

  describe('a mail whose stored file was cut short', () => {
    let cutId: number;
    let cutPart: string;

    before(async () => {
      const blobs = testBlobStore();
      const to = [{ name: 'Malformed', address: user.email }];
      const eml = await referenceMail('medium', { from: { name: 'Cut', address: 'cut@example.test' }, to, subject: `Cut ${randomUUID()}` });
      const cut = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
      cutId = cut.id;
      const parts = await db.prisma.attachment.findMany({ where: { mailId: BigInt(cutId) }, orderBy: { bodyStart: 'desc' } });
      cutPart = parts[0].partId;
      const key = cut.storageKey;
      await truncate(path.join(testSettings().STORAGE_DIR, key.slice(0, 2), key.slice(2, 4), key), parts[0].bodyStart + 100);
    });

    test('the mail still reads', async () => {
      assert.equal((await get(`/v2/mails/${cutId}`)).status, 200);
    });

    test('raw and attachment downloads end (with an error or a short, closed body) instead of hanging', async () => {
      const guard = { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(3000) };
      const outcomes = await Promise.all(
        [`/v2/mails/${cutId}/raw`, `/v2/mails/${cutId}/attachments/${cutPart}`].map(async (urlPath) => {
          try {
            const response = await fetch(`${api.url}${urlPath}`, guard);
            await response.arrayBuffer();
            return `${urlPath}: ${response.status}`;
          } catch (error) {
            return `${urlPath}: ${(error as Error).name}`;
          }
        }),
      );
      for (const outcome of outcomes) assert.doesNotMatch(outcome, /TimeoutError/, outcome);
    });
  });
});
