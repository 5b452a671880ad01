import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { senderEmails } from '../data/bench-accounts';
import { NAIVE_SEND_PATH, SEND_PATH, sendLoadRequests } from '../data/send-requests';
import { countsOf, startMockProviders } from '../harness/bench-apps';
import type { BenchFixtures } from '../harness/bench-fixtures';
import { startNaiveServer, type NaiveServer } from '../harness/naive-server';
import { startPerRequestSendApi } from '../harness/per-request-send-api';
import {
  describeQueueState,
  discardSends,
  lastSendId,
  pendingSentCopies,
  SendQueue,
  sendStatusCounts,
  undelivered,
  type SendFilter,
} from '../harness/send-queue';
import { AUTOCANNON_SECONDS, type LoadScenario, type LoadSession } from './scenario';

const NAIVE_SEND_PORT = 3901;
const NAIVE_SERVER_FILE = path.join(__dirname, '../naive/naive-send-server.ts');
/** How long a running worker is given to deliver the run's sends before the rest are discarded. */
const DRAIN_WAIT_MS = 30_000;

const sendTarget = async (fixtures: BenchFixtures) => ({
  paths: [SEND_PATH],
  headers: {},
  requests: sendLoadRequests(SEND_PATH, await fixtures.tokensOf(senderEmails())),
});

/** Group commit against the design it replaced: the same build, each send recorded and queued on its own. */
export const sendScenario: LoadScenario = {
  kind: 'load',
  name: 'send',
  title: 'POST /v2/mails/send as 40 senders in turn: record the send, queue its delivery, answer 202',
  tool: 'autocannon',
  connections: 150,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  server: 'send',
  goal: { minRequestsPerSecond: 2000, maxP99Ms: 50, original: '85.7 sends/s, p90 1.68 s' },
  target: sendTarget,
  naiveTarget: sendTarget,
  comparedWith: 'one send per statement',
  startNaive: startPerRequestSendApi,
  session: sendSession,
};

/**
 * The target as it is put: 2,000 sends a second over 150 connections, p99 under 50 ms.
 * The closed-loop run above finds the most the API accepts, at whatever latency 150 clients
 * waiting on each other make (mean latency = connections ÷ rate); this one offers the target
 * rate and measures the latency at it, and offers the same to the one-send-per-statement build.
 */
export const sendAtTargetRateScenario: LoadScenario = {
  ...sendScenario,
  name: 'send-at-2000',
  title: 'POST /v2/mails/send offered at 2,000/s over 150 connections whatever the answers (open loop): the latency at the target rate',
  tool: 'open-loop',
  offeredRatePerSecond: 2000,
};

/** The enqueued send against the original synchronous one (lesson 5). */
export const sendSynchronousScenario: LoadScenario = {
  ...sendScenario,
  name: 'send-synchronous',
  title: 'POST /v2/mails/send as 40 senders in turn, against sending while the request waits (the original design)',
  naiveTarget: async (fixtures) => ({
    paths: [NAIVE_SEND_PATH],
    headers: {},
    requests: sendLoadRequests(NAIVE_SEND_PATH, await fixtures.tokensOf(senderEmails())),
  }),
  comparedWith: undefined,
  startNaive: startNaiveSendServer,
};

/**
 * Says whether a delivery worker consumes the send API's queue while the load runs, and
 * afterwards takes the run's sends out of the queue (after letting a running worker
 * deliver for a while), so the next scenario starts with an empty queue.
 */
async function sendSession(fixtures: BenchFixtures): Promise<LoadSession> {
  const queue = SendQueue.ofProcess((await fixtures.sendApi.health()).pid);
  const senders: SendFilter = { userIds: await fixtures.userIdsOf(senderEmails()), afterId: await lastSendId(fixtures.sql) };
  const before = await queue.state();
  const notes = [
    before.workers > 0
      ? `delivery worker: RUNNING (${before.workers} consumer(s) of ${queue.name}); it delivers while the load runs and shares the CPU, ` +
        'but what it delivers is not part of these figures, which count 202 answers only'
      : `delivery worker: STOPPED (no consumer of ${queue.name}); the accepted sends wait in the queue`,
  ];
  if (await queue.isPaused()) notes.push(`WARNING: ${queue.name} is paused (a delivery-e2e run stopped half-way?): no worker takes its jobs`);
  if (before.waiting + before.delayed + before.active > 0) notes.push(`the queue already held ${describeQueueState(before)} jobs before the run`);
  return {
    notes,
    async finish() {
      try {
        return await drain(fixtures, queue, senders);
      } finally {
        await queue.close();
      }
    },
  };
}

async function drain(fixtures: BenchFixtures, queue: SendQueue, senders: SendFilter): Promise<string[]> {
  const accepted = await sendStatusCounts(fixtures.sql, senders);
  const total = Object.values(accepted).reduce((sum, count) => sum + count, 0);
  const copiesPending = await pendingSentCopies(fixtures.sql, senders);
  const notes = [`Sent copies (composed and stored by the ingest worker): ${total - copiesPending} of ${total} stored when the load ended`];
  if ((await queue.state()).workers > 0) {
    const deadline = Date.now() + DRAIN_WAIT_MS;
    let counts = accepted;
    while (undelivered(counts) > 0 && Date.now() < deadline) {
      await sleep(1000);
      counts = await sendStatusCounts(fixtures.sql, senders);
    }
    notes.push(
      `after up to ${DRAIN_WAIT_MS / 1000} s more for the worker: ${count(counts.sent)} of the run's sends delivered, ${undelivered(counts)} not yet; ` +
        `${total - (await pendingSentCopies(fixtures.sql, senders))} Sent copies stored`,
    );
  }
  const { cancelled, removedJobs } = await discardSends(fixtures.sql, queue, senders, 'discarded by the send benchmark after its run');
  const after = await queue.state();
  notes.push(
    `${total} sends recorded in the run (load, warm-up and check); ${cancelled} still queued were cancelled and ${removedJobs} of their jobs ` +
      `removed, so the next scenario starts clean; queue now ${describeQueueState(after)}` +
      (after.active > 0 ? " (the active ones are in the running worker's hands and finish within the provider's latency)" : ''),
  );
  return notes;
}

const count = (value: number | undefined) => value ?? 0;

/** The naive send server, sending through mock providers of its own at the provider's defaults (4 s, 5 mails/s per sender). */
async function startNaiveSendServer(): Promise<NaiveServer> {
  const mock = await startMockProviders();
  try {
    const server = await startNaiveServer({
      file: NAIVE_SERVER_FILE,
      port: NAIVE_SEND_PORT,
      portVariable: 'NAIVE_SEND_PORT',
      env: { NAIVE_SMTP_PORT: String(mock.smtpPort) },
    });
    return {
      ...server,
      async notes() {
        const config = await mock.config();
        const counts = countsOf(await mock.counts(), senderEmails());
        return [
          `naive: its provider (mock SMTP, ${config.latencyMs} ms latency, ${config.ratePerSecond} mails/s per sender) accepted ${counts.accepted} mails ` +
            `(warm-up and check included), refused ${counts.rateLimited} over the rate limit`,
        ];
      },
      async stop() {
        await server.stop();
        await mock.stop();
      },
    };
  } catch (error) {
    await mock.stop();
    throw error;
  }
}
