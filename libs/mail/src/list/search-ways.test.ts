import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer';
import { primaryOnly, type Database } from '@letterbox/db';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { PerUserLimit } from '../heavy-reads/per-user-limit';
import { parseSearchQuery } from '../search/search-query';
import { StatisticsSearchShares, type SearchShares } from '../search/search-shares';
import { insertMailClones } from '../store/mail-clones';
import { storeMail } from '../store/store-mail';
import { COMMON_SHARE, MailListQuery, WALK_LIMIT } from './mail-list-query';

/** Every search taken as matching all mail (the list is walked first), or none (the planned statement alone). */
const common: SearchShares = { shareOf: async () => 1 };
const rare: SearchShares = { shareOf: async () => 0 };

describe('a search answers the same whichever way it is estimated', () => {
  const blobs = testBlobStore();
  let db: Database;
  let user: TestUser;
  /** The statements the searches ran, in order: a named one by its name, else `walk` or `planned`. */
  const statements: string[] = [];

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'search-ways');
    const store = async (from: string, text: string, receivedAt: Date) => {
      const eml = await new MailComposer({ from, to: 'me@letterbox.test', subject: 'Notes', text }).compile().build();
      return (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml, receivedAt })).id;
    };
    const longAgo = new Date(Date.now() - 4 * 365 * 86_400_000);
    const templates = [
      await store('Keeper <keeper@coast.test>', 'The lighthouse keeper writes every week.', new Date()),
      await store('Harbour <harbour@coast.test>', 'The harbour master answers.', new Date()),
    ];
    // A word in one mail older than the newest WALK_LIMIT: a walk of the list cannot reach it.
    await store('Archive <archive@coast.test>', 'An old almanac of tides.', longAgo);
    const shared = { userId: user.id, threadSize: 1, mailboxes: { inbox: user.mailboxes.inbox, custom: user.mailboxes.inbox, locked: user.mailboxes.inbox } };
    await insertMailClones(db.sql, { ...shared, templateIds: templates, from: 1, to: WALK_LIMIT + 100, batch: randomUUID().slice(0, 8) });
    await db.sql.query(
      `INSERT INTO mail_search (mail_id, user_id, body, document)
       SELECT m.id, m.user_id, s.body, s.document FROM mails m JOIN mails t ON t.storage_key = m.storage_key AND t.id = ANY($2::int8[])
         JOIN mail_search s ON s.mail_id = t.id
        WHERE m.user_id = $1 AND m.id <> ALL($2::int8[])`,
      [user.id, templates],
    );
    const query = db.sql.query.bind(db.sql) as (...args: unknown[]) => unknown;
    (db.sql as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      const { name, text } = typeof config === 'string' ? { name: undefined, text: config } : (config as { name?: string; text: string });
      statements.push(name ?? (text.includes(`LIMIT ${WALK_LIMIT})`) ? 'walk' : 'planned'));
      return query(config, ...rest);
    };
  });

  after(async () => {
    if (user) await db.sql.query('DELETE FROM mails WHERE user_id = $1', [user.id]);
    await db?.close();
  });

  const firstPage = (shares: SearchShares, q: string) =>
    new MailListQuery(primaryOnly(db.sql), new PerUserLimit({ perUser: 4, waitMs: 1000 }), shares).page(user.id, {
      filter: { search: parseSearchQuery(q) },
      order: 'desc',
      limit: 20,
    });

  test('a word in half the mail: the walk answers, and says what the planned statement says', async () => {
    statements.length = 0;
    const walked = await firstPage(common, 'lighthouse');
    assert.ok(statements.includes('walk'), statements.join(', '));
    assert.ok(!statements.includes('planned'), 'the walk found more hits than are counted: no other statement');
    const planned = await firstPage(rare, 'lighthouse');
    assert.deepEqual(walked, planned);
    assert.equal(walked.items.length, 20);
    assert.deepEqual([walked.total, walked.totalCapped], [20, true]);
    assert.ok(walked.items.every((item) => item.highlight?.text.includes('lighthouse')));
  });

  test('with operators and an excluded word the two ways agree', async () => {
    for (const q of ['lighthouse from:keeper', 'the -lighthouse', '"lighthouse keeper" to:me@letterbox', 'the from:harbour is:unread']) {
      assert.deepEqual(await firstPage(common, q), await firstPage(rare, q), q);
    }
  });

  test('a sender alone is left to the planner; a sender and a subject together are walked', async () => {
    statements.length = 0;
    await firstPage(common, 'from:keeper');
    assert.ok(!statements.includes('walk'), statements.join(', '));
    const walked = await firstPage(common, 'from:keeper subject:notes');
    assert.ok(statements.includes('walk'), statements.join(', '));
    assert.deepEqual(walked, await firstPage(rare, 'from:keeper subject:notes'));
    assert.deepEqual([walked.items.length, walked.total, walked.totalCapped], [20, 20, true]);
  });

  test('a word the walk cannot reach in WALK_LIMIT mails is still found, when wrongly estimated common', async () => {
    statements.length = 0;
    const page = await firstPage(common, 'almanac');
    assert.deepEqual(
      page.items.map((item) => item.from.address),
      ['archive@coast.test'],
    );
    assert.deepEqual([page.total, page.totalCapped, page.nextCursor], [1, undefined, null]);
    assert.ok(statements.includes('planned'), 'the walk found too few: the planned statement answered');
    assert.deepEqual(page, await firstPage(rare, 'almanac'));
  });

  test("PostgreSQL's statistics tell this user's common word and sender from words and recipients no mail has", async () => {
    await db.sql.query('ANALYZE mail_search, mails');
    const shares = new StatisticsSearchShares();
    const shareOf = (q: string) => shares.shareOf(db.sql, parseSearchQuery(q));
    assert.ok((await shareOf('lighthouse')) >= COMMON_SHARE, 'in half of the many mails');
    assert.ok((await shareOf('from:keeper')) >= COMMON_SHARE);
    assert.ok((await shareOf('lighthouse from:keeper')) >= COMMON_SHARE, 'parts are taken as going together');
    assert.ok((await shareOf('qqzxunseenword')) < COMMON_SHARE);
    assert.ok((await shareOf('to:zzzzqqq')) < COMMON_SHARE);
    assert.ok((await shareOf('lighthouse to:zzzzqqq')) < COMMON_SHARE, 'the least common part decides');
    assert.equal(await shareOf('has:attachment'), 0, 'only words, senders, recipients and subjects are estimated');
  });
});
