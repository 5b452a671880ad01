import type { RunningWorker } from '@letterbox/queue';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { DeviceRegistry } from '@letterbox/push';
import { JOB_OPTIONS, type JobPayloads } from '@letterbox/queue';
import { logFaultsAsExpected, createTestUser, testDatabase, testQueuePrefix, waitFor } from '@letterbox/testing';
import { startMockFcmServer, type MockFcmServer } from '@letterbox/push/testing';
import { loadNotifyWorkerConfig } from './notify-worker.config';
import { startNotifyWorker } from './start-notify-worker';
import { NotifyQueue, notifyWorkerEnv } from './testing/notify-workers';

// FCM's refusals and give-ups here are deliberate: its errors are expected.
logFaultsAsExpected();

type Payload = JobPayloads['notify-new-mail'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the notify worker: notify-new-mail through BullMQ, PostgreSQL and firebase-admin to the mock FCM', () => {
  const prefix = testQueuePrefix();
  let db: Database;
  let devices: DeviceRegistry;
  let mock: MockFcmServer;
  let notify: NotifyQueue;
  let worker: RunningWorker;
  let nextMailId = 1;

  before(async () => {
    db = testDatabase();
    // More devices per user than an account keeps (MAX_DEVICES_PER_USER), so that one user's push spans several multicasts.
    devices = new DeviceRegistry(db.sql, 2000);
    mock = await startMockFcmServer({ latencyMs: 5 });
    notify = new NotifyQueue(prefix);
    worker = await startNotifyWorker(loadNotifyWorkerConfig(notifyWorkerEnv(prefix, mock.url)));
  });

  after(async () => {
    await worker?.close();
    await notify?.close();
    await mock?.close();
    await db?.close();
  });

  beforeEach(() => mock.fcm.configure({ latencyMs: 5, unavailableRate: 0, quotaExceededRate: 0, internalRate: 0, failNext: {}, unregisteredTokens: [] }));

  /** A user with these devices; each token gets a unique suffix so the mock's counts are this test's alone. */
  async function userWith(names: string[]): Promise<{ userId: number; tokens: string[] }> {
    const user = await createTestUser(db, 'push');
    const run = randomUUID().slice(0, 8);
    const tokens = names.map((name) => `${name}-${run}`);
    for (let start = 0; start < tokens.length; start += 100) {
      await Promise.all(tokens.slice(start, start + 100).map((token) => devices.register(user.id, token, 'android')));
    }
    return { userId: user.id, tokens };
  }

  const payloadFor = (userId: number): Payload => ({ userId, mailId: nextMailId++, from: 'Alice <alice@example.test>', subject: 'Lunch on Friday?' });

  const countsOf = (token: string) => mock.fcm.counts(token)[token] ?? { accepted: 0, failed: {} };

  test('unregistered and invalid tokens are removed from the database; the others are kept and notified once', async () => {
    const { userId, tokens } = await userWith(['live-a', 'live-b', 'dead-x', 'invalid-y', 'gone']);
    const [liveA, liveB, dead, invalid, gone] = tokens;
    mock.fcm.configure({ unregisteredTokens: [gone] });
    const payload = payloadFor(userId);
    await notify.queues.enqueueAll('notify-new-mail', [payload]);
    const job = await notify.settled(payload.mailId);
    assert.equal(await job.getState(), 'completed');
    assert.deepEqual((await devices.tokensOf(userId)).sort(), [liveA, liveB].sort());
    for (const token of [liveA, liveB]) assert.deepEqual(countsOf(token), { accepted: 1, failed: {} });
    assert.deepEqual(
      [countsOf(dead).failed, countsOf(invalid).failed, countsOf(gone).failed],
      [{ UNREGISTERED: 1 }, { INVALID_ARGUMENT: 1 }, { UNREGISTERED: 1 }],
    );
    const [pushed] = mock.fcm.messages(liveA);
    assert.deepEqual(pushed.notification, { title: payload.from, body: payload.subject });
    assert.deepEqual(pushed.data, { mailId: String(payload.mailId), type: 'new-mail' });
  });

  test('transient failures (503, 429, 500) are retried with backoff, sending again only to the tokens that failed', async () => {
    const { userId, tokens } = await userWith(['t503', 't429', 't500', 't429-twice', 'clean-1', 'clean-2']);
    const [unavailable, quota, internal, quotaTwice, clean1, clean2] = tokens;
    mock.fcm.configure({
      failNext: { [unavailable]: ['UNAVAILABLE'], [quota]: ['QUOTA_EXCEEDED'], [internal]: ['INTERNAL'], [quotaTwice]: ['QUOTA_EXCEEDED', 'QUOTA_EXCEEDED'] },
    });
    const payload = payloadFor(userId);
    await notify.queues.enqueueAll('notify-new-mail', [payload]);
    const job = await notify.settled(payload.mailId);
    assert.equal(await job.getState(), 'completed');
    assert.equal(job.attemptsMade, 3, 'a first attempt, a retry of three tokens, a retry of one');
    assert.deepEqual(job.data.retryTokens, [quotaTwice], 'the last retry was for the one token still failing');
    for (const token of tokens) assert.equal(countsOf(token).accepted, 1, `${token} got exactly one notification`);
    assert.deepEqual(countsOf(unavailable).failed, { UNAVAILABLE: 1 }, 'firebase-admin retried its 503 at once, within the attempt');
    assert.deepEqual(countsOf(quota).failed, { QUOTA_EXCEEDED: 1 });
    assert.deepEqual(countsOf(internal).failed, { INTERNAL: 1 });
    assert.deepEqual(countsOf(quotaTwice).failed, { QUOTA_EXCEEDED: 2 });
    for (const token of [clean1, clean2]) assert.deepEqual(countsOf(token), { accepted: 1, failed: {} }, `${token} was sent to once only`);
    assert.equal((await devices.tokensOf(userId)).length, 6, 'no token was removed');
  });

  test('a permanent failure is never retried, even when the job retries other tokens; its device is kept', async () => {
    const { userId, tokens } = await userWith(['mismatch', 'apns', 'quota', 'clean']);
    const [mismatch, apns, quota, clean] = tokens;
    // Each scripted failure happens once: a retry of these tokens would be accepted, and show.
    mock.fcm.configure({ failNext: { [mismatch]: ['SENDER_ID_MISMATCH'], [apns]: ['THIRD_PARTY_AUTH_ERROR'], [quota]: ['QUOTA_EXCEEDED'] } });
    const payload = payloadFor(userId);
    await notify.queues.enqueueAll('notify-new-mail', [payload]);
    const job = await notify.settled(payload.mailId);
    assert.equal(job.attemptsMade, 2);
    assert.deepEqual(job.data.retryTokens, [quota]);
    // Past the next backoffs: nothing else may come.
    await sleep(2500);
    assert.deepEqual(countsOf(mismatch), { accepted: 0, failed: { SENDER_ID_MISMATCH: 1 } });
    assert.deepEqual(countsOf(apns), { accepted: 0, failed: { THIRD_PARTY_AUTH_ERROR: 1 } });
    assert.deepEqual(countsOf(quota), { accepted: 1, failed: { QUOTA_EXCEEDED: 1 } });
    assert.deepEqual(countsOf(clean), { accepted: 1, failed: {} });
    assert.deepEqual((await devices.tokensOf(userId)).sort(), [...tokens].sort());
  });

  test('a device removed between attempts is not sent to on the retry', async () => {
    const { userId, tokens } = await userWith(['stays', 'leaves']);
    const [stays, leaves] = tokens;
    mock.fcm.configure({ failNext: { [stays]: ['QUOTA_EXCEEDED'], [leaves]: ['QUOTA_EXCEEDED'] } });
    const payload = payloadFor(userId);
    await notify.queues.enqueueAll('notify-new-mail', [payload]);
    await waitFor(async () => (await notify.state(payload.mailId)) === 'delayed', { what: 'the first attempt to fail' });
    assert.equal(await devices.remove(userId, leaves), true);
    await notify.settled(payload.mailId);
    assert.deepEqual(countsOf(stays), { accepted: 1, failed: { QUOTA_EXCEEDED: 1 } });
    assert.deepEqual(countsOf(leaves), { accepted: 0, failed: { QUOTA_EXCEEDED: 1 } });
  });

  test('on the final attempt the worker gives up on the tokens still failing, and the job ends', async () => {
    const { userId, tokens } = await userWith(['hopeless', 'fine']);
    const [hopeless, fine] = tokens;
    mock.fcm.configure({ failNext: { [hopeless]: Array(5).fill('INTERNAL') } });
    const payload = payloadFor(userId);
    // The job's own options with two quick attempts, so the last one comes within the test.
    await notify.queue.add('notify-new-mail', payload, {
      ...JOB_OPTIONS['notify-new-mail'],
      jobId: `notify-${payload.mailId}`,
      attempts: 2,
      backoff: { type: 'fixed', delay: 100 },
    });
    const job = await notify.settled(payload.mailId);
    assert.equal(await job.getState(), 'completed');
    assert.equal(job.attemptsMade, 2);
    assert.deepEqual(countsOf(hopeless), { accepted: 0, failed: { INTERNAL: 2 } });
    assert.deepEqual(countsOf(fine), { accepted: 1, failed: {} });
    assert.deepEqual((await devices.tokensOf(userId)).sort(), [...tokens].sort(), 'a token that failed for now is not dead');
  });

  test('a user with no devices is a no-op', async () => {
    const { userId } = await userWith([]);
    const before = Object.keys(mock.fcm.counts()).length;
    const payload = payloadFor(userId);
    await notify.queues.enqueueAll('notify-new-mail', [payload]);
    const job = await notify.settled(payload.mailId);
    assert.equal(await job.getState(), 'completed');
    assert.equal(job.attemptsMade, 1);
    assert.equal(Object.keys(mock.fcm.counts()).length, before, 'FCM was not called');
  });

  test('counts stay exact under concurrency: 1,200 devices across chunks, 30 more users, two mails each, random failures', async () => {
    mock.fcm.configure({ latencyMs: 20, unavailableRate: 0.02, quotaExceededRate: 0.02, internalRate: 0.02 });
    const bigNames = Array.from({ length: 1200 }, (_, index) => (index % 20 === 0 ? `dead-${index}` : index % 20 === 1 ? `invalid-${index}` : `big-${index}`));
    const users = [await userWith(bigNames)];
    for (let index = 0; index < 30; index++)
      users.push(await userWith(Array.from({ length: 40 }, (_, device) => (device % 10 === 0 ? `dead-${device}` : `small-${device}`))));
    const payloads = users.flatMap(({ userId }) => [payloadFor(userId), payloadFor(userId)]);
    await notify.queues.enqueueAll('notify-new-mail', payloads);
    const jobs = await Promise.all(payloads.map((payload) => notify.settled(payload.mailId, 60_000)));
    assert.deepEqual(new Set(await Promise.all(jobs.map((job) => job.getState()))), new Set(['completed']));
    const retried = jobs.filter((job) => job.attemptsMade > 1).length;
    const counts = mock.fcm.counts();
    let accepted = 0;
    let failed = 0;
    for (const { userId, tokens } of users) {
      const live = tokens.filter((token) => !token.startsWith('dead-') && !token.startsWith('invalid-'));
      for (const token of live) {
        assert.equal(counts[token]?.accepted, 2, `${token} got exactly one notification per mail`);
        accepted += 2;
      }
      for (const token of tokens) failed += Object.values(counts[token]?.failed ?? {}).reduce((sum, count) => sum + count, 0);
      assert.deepEqual((await devices.tokensOf(userId)).sort(), live.sort(), 'every dead token was removed, every live one kept');
    }
    const deadTokens = users.flatMap(({ tokens }) => tokens).filter((token) => !token.startsWith('big-') && !token.startsWith('small-'));
    for (const token of deadTokens) {
      const { accepted: deadAccepted, failed: deadFailed } = counts[token] ?? { accepted: 0, failed: {} };
      assert.equal(deadAccepted, 0);
      // Two mails raced for it: the second may have loaded the token before the first removed it.
      const answered = (deadFailed.UNREGISTERED ?? 0) + (deadFailed.INVALID_ARGUMENT ?? 0);
      assert.ok(answered >= 1 && answered <= 2, `${token}: ${JSON.stringify(deadFailed)}`);
    }
    console.log(
      `${payloads.length} notifications to ${users.reduce((sum, { tokens }) => sum + tokens.length, 0)} devices: ${accepted} accepted, ${failed} failed answers, ${retried} job(s) retried`,
    );
    assert.ok(retried > 0, 'some failures were injected and retried');
  });
});
