import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Messaging, MulticastMessage } from 'firebase-admin/messaging';
import { openFcm, type FcmConnection } from './fcm-connection';
import { PushSender, type PushReport } from './push-sender';
import { startMockFcmServer, type MockFcmServer } from './testing/mock-fcm-server';

const NOTIFICATION = { title: 'Alice <alice@example.test>', body: 'Lunch on Friday?', data: { mailId: '42', type: 'new-mail' }, collapseId: 'mail-42' };

/** Tokens unique to one test, so the mock's per-token counts are that test's alone. */
const tokensFor = (prefix: string, count: number) => {
  const run = randomUUID().slice(0, 8);
  return Array.from({ length: count }, (_, index) => `${prefix}${run}-${index}`);
};

/** firebase-admin's Messaging as it is, recording the size of each multicast call and how many were in flight at once. */
function observed(messaging: Messaging) {
  const calls: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const watched = Object.create(messaging, {
    sendEachForMulticast: {
      value: async (message: MulticastMessage) => {
        calls.push(message.tokens.length);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await messaging.sendEachForMulticast(message);
        } finally {
          inFlight -= 1;
        }
      },
    },
  }) as Messaging;
  return { messaging: watched, calls, mostInFlight: () => mostInFlight };
}

const total = (report: PushReport) => report.delivered + report.dead.length + report.transient.length + report.permanent.length;

describe('PushSender through firebase-admin against the mock FCM', () => {
  let mock: MockFcmServer;
  let connection: FcmConnection;

  before(async () => {
    mock = await startMockFcmServer();
    connection = mock.connect();
  });

  after(async () => {
    await connection?.close();
    await mock?.close();
  });

  beforeEach(() => mock.fcm.configure({ latencyMs: 5, unavailableRate: 0, quotaExceededRate: 0, internalRate: 0, failNext: {} }));

  test('1,200 tokens go out as three multicasts of at most 500, all in flight at once, each token once', async () => {
    const tokens = tokensFor('tok-', 1200);
    const watch = observed(connection.messaging);
    const report = await new PushSender(watch.messaging).send(tokens, NOTIFICATION);
    assert.deepEqual(report, { delivered: 1200, dead: [], transient: [], permanent: [] });
    assert.deepEqual(
      [...watch.calls].sort((a, b) => a - b),
      [200, 500, 500],
    );
    assert.equal(watch.mostInFlight(), 3, 'the chunks are sent in parallel');
    const counts = mock.fcm.counts();
    for (const token of tokens) assert.deepEqual(counts[token], { accepted: 1, failed: {} }, token);
    const [sent] = mock.fcm.messages(tokens[0]);
    assert.deepEqual([sent.notification, sent.data], [{ title: NOTIFICATION.title, body: NOTIFICATION.body }, NOTIFICATION.data]);
    assert.equal(sent.tag, 'mail-42', 'a device shows one notification per mail, however often it is pushed');
  });

  test('a token given twice is sent to once', async () => {
    const [token] = tokensFor('tok-', 1);
    const report = await new PushSender(connection.messaging).send([token, token], NOTIFICATION);
    assert.equal(report.delivered, 1);
    assert.equal(mock.fcm.counts(token)[token].accepted, 1);
  });

  test('each failure is sorted by what FCM said: dead, for now, or for good', async () => {
    const [live, quota, internal, mismatch, apns] = tokensFor('tok-', 5);
    const [dead] = tokensFor('dead-', 1);
    const [invalid] = tokensFor('invalid-', 1);
    mock.fcm.configure({
      failNext: { [quota]: ['QUOTA_EXCEEDED'], [internal]: ['INTERNAL'], [mismatch]: ['SENDER_ID_MISMATCH'], [apns]: ['THIRD_PARTY_AUTH_ERROR'] },
    });
    const report = await new PushSender(connection.messaging).send([live, dead, invalid, quota, internal, mismatch, apns], NOTIFICATION);
    assert.equal(report.delivered, 1);
    assert.deepEqual(report.dead.sort(), [dead, invalid].sort());
    assert.deepEqual(
      report.transient.map(({ token, code }) => [token, code]),
      [
        [quota, 'messaging/message-rate-exceeded'],
        [internal, 'messaging/internal-error'],
      ],
    );
    assert.deepEqual(
      report.permanent.map(({ token, code }) => [token, code]),
      [
        [mismatch, 'messaging/mismatched-credential'],
        [apns, 'messaging/third-party-auth-error'],
      ],
    );
  });

  test('a 503 is retried by firebase-admin itself; one that outlasts its retries is a failure for now', async () => {
    const [brief, lasting] = tokensFor('tok-', 2);
    mock.fcm.configure({ failNext: { [brief]: ['UNAVAILABLE'], [lasting]: Array(5).fill('UNAVAILABLE') } });
    const report = await new PushSender(connection.messaging).send([brief, lasting], NOTIFICATION);
    assert.equal(report.delivered, 1);
    assert.deepEqual(
      report.transient.map(({ token, code }) => [token, code]),
      [[lasting, 'messaging/server-unavailable']],
    );
    assert.deepEqual(mock.fcm.counts(brief)[brief], { accepted: 1, failed: { UNAVAILABLE: 1 } });
    assert.deepEqual(mock.fcm.counts(lasting)[lasting], { accepted: 0, failed: { UNAVAILABLE: 5 } }, 'firebase-admin tried 1 + 4 times');
  });

  test('counts stay exact with many sends at once over chunks and random failures', async () => {
    mock.fcm.configure({ unavailableRate: 0.05, quotaExceededRate: 0.1, internalRate: 0.05 });
    const sender = new PushSender(connection.messaging, 100);
    const batches = Array.from({ length: 12 }, (_, index) => [...tokensFor('tok-', 250), ...tokensFor('dead-', index % 4)]);
    const reports = await Promise.all(batches.map((tokens) => sender.send(tokens, NOTIFICATION)));
    const counts = mock.fcm.counts();
    reports.forEach((report, index) => {
      const tokens = batches[index];
      assert.equal(total(report), tokens.length, 'every token is counted once');
      const accepted = tokens.filter((token) => counts[token]?.accepted === 1);
      assert.equal(report.delivered, accepted.length, 'delivered is what the mock accepted');
      assert.equal(tokens.filter((token) => (counts[token]?.accepted ?? 0) > 1).length, 0, 'no token got two messages');
      assert.deepEqual(report.dead.sort(), tokens.filter((token) => token.startsWith('dead-')).sort());
      for (const failed of report.transient) assert.equal(counts[failed.token].accepted, 0, `${failed.token} failed and was not delivered`);
      assert.equal(report.permanent.length, 0);
    });
    const transient = reports.reduce((sum, report) => sum + report.transient.length, 0);
    console.log(`3,000 tokens in 12 sends at once: ${transient} failed for now (quota or internal, or a 503 that outlasted firebase-admin's retries)`);
    assert.ok(transient > 0, 'some failures were injected');
  });

  test('an FCM that cannot be reached fails every token for now, with the network error', async () => {
    const closed = await startMockFcmServer();
    await closed.close();
    const unreachable = openFcm({ kind: 'mock', url: closed.url, projectId: 'letterbox-test', maxConnections: 10 });
    try {
      const tokens = tokensFor('tok-', 3);
      const report = await new PushSender(unreachable.messaging).send(tokens, NOTIFICATION);
      assert.equal(report.delivered, 0);
      assert.deepEqual(
        report.transient.map((failed) => failed.token),
        tokens,
      );
      for (const failed of report.transient) {
        assert.equal(failed.code, 'app/network-error');
        assert.match(failed.message, /ECONNREFUSED/);
      }
    } finally {
      await unreachable.close();
    }
  });
});
