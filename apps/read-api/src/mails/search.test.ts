import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import iconv from 'iconv-lite';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Database } from '@letterbox/db';
import { insertMailClones, storeMail, type MailListPage, type ThreadListPage } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

describe('full-text search: q= on the mail and conversation lists', () => {
  const blobs = testBlobStore();
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  const ids: Record<string, number> = {};

  const compose = (options: ConstructorParameters<typeof MailComposer>[0]) =>
    new MailComposer({ to: 'me@letterbox.test', date: new Date('2026-11-01T10:00:00Z'), ...options }).compile().build();

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'searcher');
    const other = await createTestUser(db, 'searcher-other');
    const put = async (name: string, eml: Buffer, owner = user, mailboxId = owner.mailboxes.inbox) => {
      ids[name] = (await storeMail(db, blobs, { userId: owner.id, mailboxId, eml })).id;
    };
    await put(
      'english',
      await compose({
        from: 'Ann Archer <ann@outside.test>',
        subject: 'Numbers',
        text: 'Hello team,\n\nThe quarterly review of the marketing budget is attached. Please read it before Friday.\n',
        attachments: [{ filename: 'review.pdf', content: Buffer.alloc(3000, 1) }],
      }),
    );
    await put('html', await compose({ from: 'bob@outside.test', subject: 'Walk', html: '<p>Meet at the <b>lighthouse</b> tomorrow &amp; bring tea</p>' }));
    await put(
      'korean',
      await compose({ from: '김민수 <minsu@outside.test>', subject: '주간 보고', text: '다음 주 회의록을 첨부합니다. 예산 검토 부탁드립니다.' }),
    );
    await put(
      'copied',
      await compose({ from: 'Dana Doyle <dana@outside.test>', cc: 'Carol Cole <carol@elsewhere.test>', subject: 'Minutes', text: 'For your records.' }),
    );
    await put('japanese', await compose({ from: 'tanaka@outside.test', subject: '連絡', text: '東京都の会議は来週です。' }));
    await put('chinese', await compose({ from: 'li@outside.test', subject: '通知', text: '我们明天讨论项目预算。' }));
    const eucKr = Buffer.concat([
      Buffer.from(
        'From: office@outside.test\r\nTo: me@letterbox.test\r\nSubject: notice\r\nDate: Sun, 1 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=euc-kr\r\nContent-Transfer-Encoding: 8bit\r\n\r\n',
      ),
      iconv.encode('서울 사무실 이전 안내입니다.\r\n', 'euc-kr'),
    ]);
    await put('euc-kr', eucKr, user, user.mailboxes.spam);
    await put('theirs', await compose({ from: 'bob@outside.test', subject: 'Walk', text: 'the lighthouse again' }), other);
    await db.sql.query('UPDATE mails SET seen = true WHERE id = $1', [ids.html]);
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const search = async (q: string, path = '/v2/mails') => {
    const response = await fetch(`${api.url}${path}?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200, `${q}: ${await response.clone().text()}`);
    return (await response.json()) as MailListPage;
  };
  const found = async (q: string) => (await search(q)).items.map((item) => item.id);

  test('a word in the body is found, with a snippet that marks it', async () => {
    const page = await search('quarterly');
    assert.deepEqual(
      page.items.map((item) => item.id),
      [ids.english],
    );
    assert.equal(page.total, 1);
    const highlight = page.items[0].highlight;
    assert.ok(highlight, 'the hit has a highlight');
    assert.deepEqual(
      highlight.marks.map(([start, end]) => highlight.text.slice(start, end)),
      ['quarterly'],
    );
    assert.deepEqual(await found('QUARTERLY Budget'), [ids.english], 'words in any case, all of them');
  });

  test('a quoted phrase must appear as written; an excluded word leaves its mail out', async () => {
    assert.deepEqual(await found('"marketing budget"'), [ids.english]);
    assert.deepEqual(await found('"budget marketing"'), []);
    assert.deepEqual(await found('review -budget'), []);
  });

  test('HTML is searched as text, and sender names and addresses are searched too', async () => {
    assert.deepEqual(await found('lighthouse'), [ids.html], "another user's mail with the word is not found");
    assert.deepEqual(await found('archer'), [ids.english]);
    assert.deepEqual(await found('ann'), [ids.english]);
  });

  test('Korean, Japanese and Chinese are found by a word inside the text, in any charset', async () => {
    assert.deepEqual(await found('회의록'), [ids.korean], 'a word with its particle attached (회의록을)');
    assert.deepEqual(await found('예산'), [ids.korean]);
    assert.deepEqual(await found('"예산 검토"'), [ids.korean]);
    assert.deepEqual(await found('김민수'), [ids.korean]);
    assert.deepEqual(await found('会議'), [ids.japanese]);
    assert.deepEqual(await found('東京'), [ids.japanese]);
    assert.deepEqual(await found('预算'), [ids.chinese]);
    assert.deepEqual(await found('项目'), [ids.chinese]);
    assert.deepEqual(await found('사무실'), [ids['euc-kr']], 'an EUC-KR body, decoded when stored');
    assert.deepEqual(await found('회의실'), [], 'a word that is not there');
    const korean = (await search('회의록')).items[0].highlight;
    assert.deepEqual(
      korean?.marks.map(([start, end]) => korean.text.slice(start, end)),
      ['회의록'],
    );
  });

  test("operators combine with words and with the list's own filters", async () => {
    assert.deepEqual(await found('has:attachment'), [ids.english]);
    assert.deepEqual(await found('from:ann quarterly'), [ids.english]);
    assert.deepEqual(await found('from:bob quarterly'), []);
    assert.deepEqual(await found('in:spam'), [ids['euc-kr']]);
    assert.deepEqual(await found('lighthouse is:unread'), []);
    assert.deepEqual(await found('lighthouse is:read'), [ids.html]);
    assert.deepEqual(await found('subject:walk'), [ids.html]);
    assert.deepEqual(await found('to:me@letterbox quarterly'), [ids.english]);
    assert.deepEqual(await found('after:2026-11-01 before:2026-11-02 quarterly'), [ids.english]);
    assert.deepEqual(await found('before:2026-11-01 quarterly'), []);
    assert.deepEqual(await found('larger:2K quarterly'), [ids.english]);
    assert.deepEqual(await found('smaller:1K quarterly'), []);
    const response = await fetch(`${api.url}/v2/mails?q=quarterly&mailboxId=${user.mailboxes.spam}`, { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(((await response.json()) as MailListPage).items, []);
  });

  test('to: finds a recipient in To or Cc, by address or name; from: a sender by address or name', async () => {
    assert.deepEqual(await found('to:carol@elsewhere'), [ids.copied], 'a Cc recipient');
    assert.deepEqual(await found('to:"Carol Cole"'), [ids.copied]);
    assert.deepEqual(await found('to:zzzzqqq'), [], 'a recipient no mail has');
    assert.deepEqual(await found('from:doyle'), [ids.copied], "the sender's name");
    assert.deepEqual(await found('from:dana@outside'), [ids.copied], "the sender's address");
    const none = await search('to:zzzzqqq');
    assert.equal(none.total, 0);
  });

  test('a search counts its hits as far as its page and says there are more; its pages still reach every hit', async () => {
    const many = await createTestUser(db, 'searcher-many');
    const inbox = many.mailboxes.inbox;
    await insertMailClones(db.sql, {
      templateIds: [ids.english],
      userId: many.id,
      from: 1,
      to: 150,
      batch: randomUUID().slice(0, 8),
      threadSize: 3,
      mailboxes: { inbox, custom: inbox, locked: inbox },
    });
    const headers = { authorization: `Bearer ${await api.login(many.email, many.password)}` };
    const query = `/v2/mails?limit=50&q=${encodeURIComponent('has:attachment to:me@letterbox')}`;
    const pageAfter = async (cursor: string | null) =>
      (await (await fetch(`${api.url}${query}${cursor ? `&cursor=${cursor}` : ''}`, { headers })).json()) as MailListPage;
    let page = await pageAfter(null);
    assert.equal(page.total, 50, 'a search is counted as far as its page');
    assert.equal(page.totalCapped, true);
    const listed = page.items.map((item) => item.id);
    while (page.nextCursor) {
      page = await pageAfter(page.nextCursor);
      listed.push(...page.items.map((item) => item.id));
    }
    assert.equal(new Set(listed).size, 150);
  });

  test('the conversation list takes q= too', async () => {
    const page = (await search('lighthouse', '/v2/threads')) as unknown as ThreadListPage;
    assert.deepEqual(
      page.items.map((item) => item.latest.id),
      [ids.html],
    );
    assert.ok(page.items[0].latest.highlight?.marks.length);
  });

  test('a search leaves out locked mailboxes, and one that names a locked or missing mailbox is refused', async () => {
    const owner = await createTestUser(db, 'searcher-folders');
    const folder = async (name: string, locked: boolean) =>
      (
        await db.sql.query<{ id: number }>("INSERT INTO mailboxes (user_id, name, role, locked) VALUES ($1, $2, 'custom', $3) RETURNING id", [
          owner.id,
          name,
          locked,
        ])
      ).rows[0].id;
    const [vault, projects] = [await folder('Vault', true), await folder('Projects', false)];
    const file = async (mailboxId: number, subject: string) =>
      (await storeMail(db, blobs, { userId: owner.id, mailboxId, eml: await compose({ from: 'eve@outside.test', subject, text: 'the harbour plan' }) })).id;
    await file(vault, 'Vault copy');
    const inProjects = await file(projects, 'Projects copy');
    const ownerToken = await api.login(owner.email, owner.password);
    const ask = (query: string) => fetch(`${api.url}/v2/mails?${query}`, { headers: { authorization: `Bearer ${ownerToken}` } });
    const idsOf = async (query: string) => {
      const response = await ask(query);
      assert.equal(response.status, 200, query);
      return ((await response.json()) as MailListPage).items.map((item) => item.id);
    };
    assert.deepEqual(await idsOf('q=harbour'), [inProjects], "the locked folder's copy is left out");
    assert.deepEqual(await idsOf('q=from:eve'), [inProjects]);
    assert.deepEqual(await idsOf(`q=${encodeURIComponent('in:projects harbour')}`), [inProjects], 'in: takes a name in any case');
    assert.deepEqual(await idsOf(`q=${encodeURIComponent('in:inbox harbour')}`), [], 'a mailbox with no hits is an empty page');
    for (const query of [`q=${encodeURIComponent('in:Vault harbour')}`, `mailboxId=${vault}&q=harbour`]) {
      const response = await ask(query);
      assert.equal(response.status, 423, query);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    }
    assert.equal((await ask(`mailboxId=${vault + 1_000_000}&q=harbour`)).status, 404);
  });

  test('a query that cannot be understood is a 400 that says why', async () => {
    for (const [q, detail] of [
      ['is:purple', /q: is: must be one of/],
      ['in:Nowhere', /q: in: you have no mailbox named "Nowhere"/],
      ['after:soon', /q: after: must be a date/],
    ] as const) {
      const response = await fetch(`${api.url}/v2/mails?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 400, q);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
      assert.match(((await response.json()) as { detail: string }).detail, detail);
    }
    const tooLong = await fetch(`${api.url}/v2/mails?q=${'a'.repeat(501)}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(tooLong.status, 400);
  });
});
