import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig, spamCheckConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { RspamdLearner } from '@letterbox/ingest';
import { storeMail, type MailState } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import type { JobQueues } from '@letterbox/queue';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testQueues, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

/** "Report spam" and "Not spam", against the rspamd scripts/setup.sh starts: the learning job run here as the ingest worker runs it. */
describe('reporting spam and not spam', () => {
  const settings = loadConfig(spamCheckConfig);
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  let db: Database;
  let queues: JobQueues;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  let mailId: number;

  before(async () => {
    db = testDatabase();
    queues = testQueues(prefix);
    user = await createTestUser(db, 'reporter');
    const eml = await randomMail(Date.now() % 100_000, { to: [{ name: 'Reporter', address: user.email }] });
    mailId = (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml })).id;
    api = await startReadApiServer({ QUEUE_PREFIX: prefix });
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await queues?.close();
    await db?.close();
  });

  const post = (path: string) => fetch(`${api.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });

  async function learned(): Promise<number> {
    const response = await fetch(new URL('/stat', settings.RSPAMD_CONTROLLER_URL), { headers: { password: settings.RSPAMD_PASSWORD } });
    return ((await response.json()) as { learned: number }).learned;
  }

  async function learnQueued(as: 'spam' | 'ham'): Promise<void> {
    const mail = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) }, select: { storageKey: true, size: true } });
    const payload = { mailId, storageKey: mail.storageKey, size: mail.size, as };
    assert.ok(await queues.has('learn-spam', payload), `a learn-spam job (${as}) is queued`);
    const learner = new RspamdLearner(blobs, {
      controllerUrl: settings.RSPAMD_CONTROLLER_URL,
      password: settings.RSPAMD_PASSWORD,
      maxBytes: settings.SPAM_CHECK_MAX_BYTES,
      timeoutMs: 10_000,
    });
    assert.deepEqual(await learner.learn(payload), { outcome: 'done' });
  }

  test('report spam moves the mail to Spam, and rspamd learns it (its learned counter grows)', async () => {
    const before = await learned();
    const response = await post(`/v2/mails/${mailId}/spam`);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as MailState).mailboxId, user.mailboxes.spam);
    await learnQueued('spam');
    assert.equal(await learned(), before + 1);
  });

  test('not spam moves it back to the inbox, and rspamd learns it as ham', async () => {
    const response = await post(`/v2/mails/${mailId}/not-spam`);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as MailState).mailboxId, user.mailboxes.inbox);
    await learnQueued('ham');
  });

  test("another user's mail is not found, and nothing is queued", async () => {
    const other = await createTestUser(db, 'reporter-other');
    const otherToken = await api.login(other.email, other.password);
    const response = await fetch(`${api.url}/v2/mails/${mailId}/spam`, { method: 'POST', headers: { authorization: `Bearer ${otherToken}` } });
    assert.equal(response.status, 404);
  });

  test('listed mails are reported at once: those that moved are learned, and a second report teaches nothing twice', async () => {
    const eml = (seed: number) => randomMail(seed, { to: [{ name: 'Reporter', address: user.email }] });
    const ids = await Promise.all(
      [1, 2].map(async (seed) => (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: await eml(seed) })).id),
    );
    const report = (path: string, body: unknown) =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const first = await report('/v2/mails/spam', { ids });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { updated: 2 });
    const moved = await db.prisma.mail.findMany({ where: { id: { in: ids.map(BigInt) } }, select: { mailboxId: true } });
    assert.deepEqual(
      moved.map((mail) => mail.mailboxId),
      [user.mailboxes.spam, user.mailboxes.spam],
    );
    for (const id of ids) {
      const mail = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { storageKey: true, size: true } });
      assert.ok(await queues.has('learn-spam', { mailId: id, storageKey: mail.storageKey, size: mail.size, as: 'spam' }), `mail ${id} is learned`);
    }
    assert.deepEqual(await (await report('/v2/mails/spam', { ids })).json(), { updated: 0 });

    const back = await report('/v2/mails/not-spam', { ids: [ids[0]] });
    assert.deepEqual(await back.json(), { updated: 1 });

    const refused = await report('/v2/mails/spam', { ids, threadIds: [1] });
    assert.equal(refused.status, 400);
    assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(JSON.stringify(await refused.json()), /give exactly one of ids, threadIds/);
  });
});
