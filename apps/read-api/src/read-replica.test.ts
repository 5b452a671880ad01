import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Pool } from 'pg';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { referenceMail } from '@letterbox/mail-generator';
import {
  type AppProcess,
  createTestUser,
  ensureReadReplica,
  openEventStream,
  type RunningIngestServer,
  type SendApiProcess,
  startIngestProcess,
  startIngestWorkerProcess,
  startSendApiProcess,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from './testing/read-api-server';

const SENDER = { name: 'Sender', address: 'sender@example.org' };

interface MailBody {
  id: number;
  seen: boolean;
  subject: string;
}

/**
 * Two read API processes' worth of servers share a streaming replica. Replay is paused on
 * it to tell the servers apart: what the replica serves while paused is the past.
 */
describe('reads from a read replica (DATABASE_READ_URL)', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let replica: Pool;
  let apis: [RunningApi, RunningApi];
  let ingest: RunningIngestServer;
  let sendApi: SendApiProcess;
  let worker: AppProcess;
  let writer: TestUser;
  let bystander: TestUser;
  let writerToken: string;
  let bystanderToken: string;
  const writerMails: number[] = [];
  let bystanderMail: number;

  before(async () => {
    const replicaUrl = await ensureReadReplica();
    const superuser = new URL(replicaUrl);
    [superuser.username, superuser.password] = ['postgres', ''];
    replica = new Pool({ connectionString: superuser.href, max: 2 });
    await resumeReplay();
    db = testDatabase();
    const env = { DATABASE_READ_URL: replicaUrl, QUEUE_PREFIX: queuePrefix };
    apis = [await startReadApiServer(env), await startReadApiServer(env)];
    ingest = await startIngestProcess(env);
    sendApi = await startSendApiProcess(env);
    worker = await startIngestWorkerProcess(env);
    const blobs = testBlobStore();
    writer = await createTestUser(db, 'writer');
    bystander = await createTestUser(db, 'bystander');
    for (let index = 0; index < 3; index++) {
      const eml = await referenceMail('small', { from: SENDER, to: [{ name: 'Writer', address: writer.email }], subject: `For the writer ${index}` });
      writerMails.push((await storeMail(db, blobs, { userId: writer.id, mailboxId: writer.mailboxes.inbox, eml })).id);
    }
    const eml = await referenceMail('small', { from: SENDER, to: [{ name: 'Bystander', address: bystander.email }], subject: `Quarterly ${bystander.domain}` });
    bystanderMail = (await storeMail(db, blobs, { userId: bystander.id, mailboxId: bystander.mailboxes.inbox, eml })).id;
    writerToken = await apis[0].login(writer.email, writer.password);
    bystanderToken = await apis[0].login(bystander.email, bystander.password);
    await replicaCaughtUp();
  });

  after(async () => {
    await resumeReplay();
    await worker?.stop();
    await ingest?.close();
    await sendApi?.close();
    await Promise.all((apis ?? []).map((api) => api.close()));
    await replica?.end();
    await db?.close();
  });

  async function resumeReplay(): Promise<void> {
    await replica.query('SELECT pg_wal_replay_resume()');
  }

  /** Runs `work` with replay paused on the replica: it keeps what it had, whatever the primary commits meanwhile. */
  async function whilePaused(work: () => Promise<void>): Promise<void> {
    await replicaCaughtUp();
    await replica.query('SELECT pg_wal_replay_pause()');
    await waitFor(async () => (await replica.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0].state === 'paused', {
      what: 'replay to pause',
    });
    try {
      await work();
    } finally {
      await resumeReplay();
    }
  }

  async function replicaCaughtUp(): Promise<void> {
    const { rows } = await db.sql.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    await waitFor(async () => (await replica.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [rows[0].lsn])).rows[0].done, {
      what: 'the replica to replay what the primary has',
    });
  }

  async function get<T>(api: RunningApi, token: string, path: string): Promise<T> {
    const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    assert.equal(response.status, 200, body);
    return JSON.parse(body) as T;
  }

  async function send(api: RunningApi, token: string, method: string, path: string, body?: object): Promise<void> {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    assert.equal(response.status, 200, await response.text());
  }

  const inboxOf = async (api: RunningApi, token: string, user: TestUser) =>
    get<{ items: MailBody[]; total: number }>(api, token, `/v2/mails?mailboxId=${user.mailboxes.inbox}`);
  const unreadInInbox = async (api: RunningApi, token: string, user: TestUser) =>
    (await get<{ items: Array<{ id: number; unreadCount: number }> }>(api, token, '/v2/mailboxes')).items.find((mailbox) => mailbox.id === user.mailboxes.inbox)
      ?.unreadCount;

  test("the reads of a user with no recent write are the replica's: counts, lists, a mail, threads, search", async () => {
    await whilePaused(async () => {
      // Written to the primary behind the API's back: nothing tells the routing, as with another user's change.
      await db.sql.query('UPDATE mails SET seen = true WHERE id = $1', [bystanderMail]);
      const [api] = apis;
      assert.equal((await get<MailBody>(api, bystanderToken, `/v2/mails/${bystanderMail}`)).seen, false, 'the mail as the replica has it');
      assert.deepEqual(
        (await inboxOf(api, bystanderToken, bystander)).items.map((mail) => mail.seen),
        [false],
      );
      assert.equal(await unreadInInbox(api, bystanderToken, bystander), 1);
      const threads = await get<{ items: Array<{ unreadCount: number }> }>(api, bystanderToken, '/v2/threads');
      assert.deepEqual(
        threads.items.map((thread) => thread.unreadCount),
        [1],
      );
      const search = await get<{ items: MailBody[] }>(api, bystanderToken, '/v2/mails?q=Quarterly&seen=true');
      assert.deepEqual(search.items, [], 'the search, on the replica, finds no read mail');
    });
    const { rows } = await replica.query<{ statements: string[] }>(
      // The read API's pools and its pools for heavy reads (the search), which are named after them.
      `SELECT array_agg(query) AS statements FROM pg_stat_activity WHERE application_name IN ('letterbox-read-api', 'letterbox-read-api-heavy') AND datname = current_database()`,
    );
    assert.ok(
      rows[0].statements?.some((query) => query.includes('FROM mails m')),
      'the read API has connections to the replica, which read mail',
    );
    assert.ok(!rows[0].statements.some((query) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(query)), 'none of them wrote');
    await replicaCaughtUp();
    assert.equal(await unreadInInbox(apis[0], bystanderToken, bystander), 0, 'once replayed, the replica has the change');
  });

  test('a user who changes mail sees the change in the next response, from another process, while the replica lags', async () => {
    const [first, second] = apis;
    await whilePaused(async () => {
      await send(first, writerToken, 'PATCH', `/v2/mails/${writerMails[0]}`, { seen: true });
      assert.equal((await get<MailBody>(second, writerToken, `/v2/mails/${writerMails[0]}`)).seen, true);
      assert.equal(await unreadInInbox(second, writerToken, writer), 2);

      await send(second, writerToken, 'DELETE', `/v2/mails/${writerMails[1]}`);
      const inbox = await inboxOf(first, writerToken, writer);
      assert.deepEqual(inbox.items.map((mail) => mail.id).sort(), [writerMails[0], writerMails[2]].sort(), 'the deleted mail left the inbox');
      assert.equal(inbox.total, 2);

      await send(first, writerToken, 'POST', '/v2/mails/bulk', { ids: [writerMails[2]], flagged: true });
      const thread = await get<{ items: Array<{ latest: { id: number; flagged: boolean } }> }>(second, writerToken, '/v2/threads');
      assert.ok(thread.items.some((item) => item.latest.id === writerMails[2] && item.latest.flagged));

      // A draft is announced to no one: the send API's recording of every write is what makes it seen.
      const subject = `Draft ${randomUUID()}`;
      const draft = await fetch(`${sendApi.url}/v2/drafts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject, text: 'to be continued' }),
      });
      assert.equal(draft.status, 201, await draft.text());
      const drafts = await get<{ items: MailBody[] }>(first, writerToken, `/v2/mails?mailboxId=${writer.mailboxes.drafts}`);
      assert.deepEqual(
        drafts.items.map((mail) => mail.subject),
        [subject],
      );

      assert.equal(
        (await get<MailBody>(second, bystanderToken, `/v2/mails/${bystanderMail}`)).seen,
        true,
        'the bystander still reads the replica, which has what it had',
      );
    });
  });

  test('a mail that ingest stores is listed when the webmail refetches on its live event, while the replica lags', async () => {
    const [first, second] = apis;
    const events = await openEventStream(`${first.url}/v2/events`, { authorization: `Bearer ${writerToken}` });
    try {
      if (events.status !== 200) assert.fail(await events.text());
      await whilePaused(async () => {
        const subject = `Fresh ${randomUUID()}`;
        const eml = await referenceMail('small', { from: SENDER, to: [{ name: 'Writer', address: writer.email }], subject });
        assert.equal((await ingest.post(eml)).status, 202);
        for (let event = await events.next(); event.event !== 'mail.created'; event = await events.next());
        const inbox = await inboxOf(second, writerToken, writer);
        assert.ok(
          inbox.items.some((mail) => mail.subject === subject),
          'the new mail is listed',
        );
      });
    } finally {
      events.close();
    }
  });
});
