import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { sendBody, SEND_PATH } from '../data/send-requests';
import type { ApiClient } from './api-client';
import { countsOf, startCopyWorker, startDeliveryWorker, type AccountCounts, type MockProviders } from './bench-apps';
import { spreadOf } from './load-result';
import { machineCpuTicks, mainThreadCpuSeconds, treeCpuSeconds } from './process-tree';
import { discardSends, pendingSentCopies, sendStatusCounts, undelivered, type SendQueue } from './send-queue';

/** Sends queued through the API at once: enough to keep the send API busy, few enough not to time out. */
const QUEUEING_CONCURRENCY = 32;
const POLL_INTERVAL_MS = 250;
/** The share of deliveries left out at each end when the steady rate is taken: the first burst and the tail. */
const STEADY_EDGE = 0.1;

/**
 * live: the worker takes sends while they are being queued, as in production; the API's
 * queueing rate bounds delivery if it is not well above what the provider allows.
 * backlog: the queue is paused while every send is queued, then released, so delivery
 * is measured on its own; latencies then count from the release.
 */
export type DeliveryMode = 'live' | 'backlog';

export interface DeliveryCase {
  label: string;
  mode: DeliveryMode;
  senders: Array<{ email: string; token: string; userId: number }>;
  sendsPerSender: number;
  /** The delivery worker's settings for this case. */
  workerEnv: Record<string, string>;
  /** Another build's dist/ to run the worker from (--worker-build). */
  workerBuild?: string;
}

export interface DeliveryCaseResult {
  label: string;
  mode: DeliveryMode;
  senders: number;
  sends: number;
  workerEnv: Record<string, string>;
  /** How long queueing every send through the API took, and at what rate. */
  queueingSeconds: number;
  queueingErrors: number;
  statuses: Record<string, number>;
  /** requested_at (backlog: the release, if later) to sent_at of the delivered sends, in ms. */
  requestToDeliveryMs: { p50: number; p95: number; p99: number; max: number };
  /** requested_at to started_at (the worker took the send, within the sender's limit), in ms. */
  requestToStartMs: { p50: number; p99: number };
  /**
   * Where a delivery's time beyond the provider's latency goes, for sends delivered at the
   * first attempt, in ms: from the worker taking the send (started_at) to the provider's
   * decision (its 250 reply less its latency), and from that reply to sent_at being written.
   */
  claimToProviderMs: { p50: number; p99: number };
  providerReplyToRecordedMs: { p50: number; p99: number };
  /** Deliveries per second between the first and last tenth of the deliveries. */
  steadyDeliveriesPerSecond: number;
  /** What the provider allows these senders: senders × its rate per account. */
  allowedPerSecond: number;
  ratio: number;
  /** First request to last delivery, and what the provider's latency and rate allow at best. */
  allDeliveredSeconds: number;
  idealSeconds: number;
  /** What the mock provider answered to these senders. */
  provider: AccountCounts;
  /** The worker's CPU over the case ÷ its length: 1 is one core busy throughout; its main thread alone; the mock provider's; the whole machine. */
  workerCpuCores: number;
  /** The ingest worker's, storing the sends' Sent copies beside the deliveries. */
  copyWorkerCpuCores: number;
  /** Sent copies not yet stored when the last send was delivered. */
  copiesPendingAtEnd: number;
  mockCpuCores: number;
  workerMainThreadCores: number;
  machineBusyCores: number;
  timedOut: boolean;
  discarded: number;
}

export interface DeliveryEnvironment {
  sendApi: ApiClient;
  sql: Pool;
  queue: SendQueue;
  mock: MockProviders;
}

/**
 * One delivery case: starts a worker with the case's settings, queues every send through
 * the send API (the queue paused meanwhile in backlog mode), waits (bounded) until all are
 * delivered, reads their times from outbound_sends and what the provider counted, then
 * stops the worker.
 */
export async function runDeliveryCase(environment: DeliveryEnvironment, deliveryCase: DeliveryCase, timeoutSeconds: number): Promise<DeliveryCaseResult> {
  const { sendApi, sql, queue, mock } = environment;
  const provider = await mock.config();
  const worker = await startDeliveryWorker(queue, deliveryCase.workerEnv, deliveryCase.workerBuild);
  // As in production, another process stores the Sent copies meanwhile, on the same cores.
  const copier = await startCopyWorker(queue).catch(async (error: unknown) => {
    await worker.stop();
    throw error;
  });
  const userIds = deliveryCase.senders.map((sender) => sender.userId);
  let ids: number[] = [];
  try {
    await mock.reset();
    // A previous case may have emptied these senders' token buckets in Redis: they refill within burst ÷ rate.
    await sleep(Math.ceil((provider.burst / provider.ratePerSecond) * 1000) + 200);
    const backlog = deliveryCase.mode === 'backlog';
    if (backlog) await queue.pause();
    let cpuBefore = cpuNow(worker.pid, mock.pid, copier.pid);
    let startedAt = performance.now();
    let releasedAt = 0;
    let queued: { ids: number[]; errors: number };
    try {
      queued = await queueSends(sendApi, deliveryCase);
    } finally {
      if (backlog) {
        releasedAt = Date.now();
        await queue.resume();
      }
    }
    ids = queued.ids;
    const queueingSeconds = (performance.now() - startedAt) / 1000;
    // live: delivery is timed from the first request; backlog: from the release.
    if (backlog) {
      cpuBefore = cpuNow(worker.pid, mock.pid, copier.pid);
      startedAt = performance.now();
    }
    const deadline = Date.now() + timeoutSeconds * 1000;
    let statuses = await sendStatusCounts(sql, { userIds, ids });
    while (undelivered(statuses) > 0 && Date.now() < deadline) {
      const exit = worker.unexpectedExit() ?? copier.unexpectedExit();
      if (exit) throw new Error(`a worker ${exit}`);
      await sleep(POLL_INTERVAL_MS);
      statuses = await sendStatusCounts(sql, { userIds, ids });
    }
    const caseSeconds = (performance.now() - startedAt) / 1000;
    const machine = machineCpuTicks();
    const workerCpuCores = (treeCpuSeconds(worker.pid) - cpuBefore.tree) / caseSeconds;
    const workerMainThreadCores = (mainThreadCpuSeconds(worker.pid) - cpuBefore.main) / caseSeconds;
    const mockCpuCores = (treeCpuSeconds(mock.pid) - cpuBefore.mock) / caseSeconds;
    const copyWorkerCpuCores = (treeCpuSeconds(copier.pid) - cpuBefore.copier) / caseSeconds;
    const copiesPendingAtEnd = await pendingSentCopies(sql, { userIds, ids });
    const machineBusyCores = ((machine.busy - cpuBefore.machine.busy) / (machine.total - cpuBefore.machine.total)) * cpus().length;
    const timedOut = undelivered(statuses) > 0;
    const counts = countsOf(
      await mock.counts(),
      deliveryCase.senders.map((sender) => sender.email),
    );
    const times = (await sendTimes(sql, ids)).map((time) => (backlog ? { ...time, requestedAt: Math.max(time.requestedAt, releasedAt) } : time));
    const overheads = providerOverheads(times, await mock.accepted(MOCK_KEPT_MAILS), provider.latencyMs);
    const discarded = timedOut ? (await discardSends(sql, queue, { userIds, ids }, 'not delivered within the delivery benchmark timeout')).cancelled : 0;
    const perSenderAfterBurst = Math.max(0, deliveryCase.sendsPerSender - provider.burst);
    const allowedPerSecond = deliveryCase.senders.length * provider.ratePerSecond;
    const steady = steadyRate(times.map((time) => time.sentAt).filter((at): at is number => at !== null));
    return {
      label: deliveryCase.label,
      mode: deliveryCase.mode,
      senders: deliveryCase.senders.length,
      sends: deliveryCase.senders.length * deliveryCase.sendsPerSender,
      workerEnv: deliveryCase.workerEnv,
      queueingSeconds,
      queueingErrors: queued.errors,
      statuses,
      requestToDeliveryMs: spreadOf(times.filter((time) => time.sentAt !== null).map((time) => (time.sentAt as number) - time.requestedAt)),
      requestToStartMs: (({ p50, p99 }) => ({ p50, p99 }))(
        spreadOf(times.filter((time) => time.startedAt !== null).map((time) => (time.startedAt as number) - time.requestedAt)),
      ),
      claimToProviderMs: overheads.claimToProvider,
      providerReplyToRecordedMs: overheads.replyToRecorded,
      steadyDeliveriesPerSecond: steady,
      allowedPerSecond,
      ratio: steady / allowedPerSecond,
      allDeliveredSeconds: allDeliveredSeconds(times),
      idealSeconds: provider.latencyMs / 1000 + perSenderAfterBurst / provider.ratePerSecond,
      provider: counts,
      workerCpuCores,
      copyWorkerCpuCores,
      copiesPendingAtEnd,
      workerMainThreadCores,
      mockCpuCores,
      machineBusyCores,
      timedOut,
      discarded,
    };
  } finally {
    await Promise.all([worker.stop(), copier.stop()]);
  }
}

function cpuNow(workerPid: number, mockPid: number, copierPid: number) {
  return {
    tree: treeCpuSeconds(workerPid),
    main: mainThreadCpuSeconds(workerPid),
    mock: treeCpuSeconds(mockPid),
    copier: treeCpuSeconds(copierPid),
    machine: machineCpuTicks(),
  };
}

/** Queues every send, one sender after another so that each sender's sends are spread over the queueing. */
export async function queueSends(
  sendApi: ApiClient,
  deliveryCase: Pick<DeliveryCase, 'senders' | 'sendsPerSender'>,
): Promise<{ ids: number[]; errors: number }> {
  const requests = Array.from({ length: deliveryCase.sendsPerSender }, (_, round) =>
    deliveryCase.senders.map((sender, index) => ({ token: sender.token, body: sendBody(round * deliveryCase.senders.length + index) })),
  ).flat();
  const ids: number[] = [];
  const failures: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      const answer = await sendApi.postJson<{ id?: number; detail?: string }>(SEND_PATH, request.body, request.token).catch((error: Error) => ({
        status: 0,
        body: { detail: error.message } as { id?: number; detail?: string },
      }));
      if (answer.status === 202 && answer.body.id) ids.push(answer.body.id);
      else failures.push(`${answer.status} ${answer.body.detail ?? ''}`);
    }
  };
  await Promise.all(Array.from({ length: QUEUEING_CONCURRENCY }, lane));
  if (ids.length === 0) throw new Error(`the send API accepted none of the sends: ${failures.slice(0, 3).join('; ')}`);
  return { ids, errors: failures.length };
}

interface SendTimes {
  messageId: string;
  attempts: number;
  requestedAt: number;
  startedAt: number | null;
  sentAt: number | null;
}

async function sendTimes(sql: Pool, ids: number[]): Promise<SendTimes[]> {
  const { rows } = await sql.query<{ message_id: string; attempts: number; requested_at: Date; started_at: Date | null; sent_at: Date | null }>(
    `SELECT request->>'messageId' AS message_id, attempts, requested_at, started_at, sent_at FROM outbound_sends WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return rows.map((row) => ({
    messageId: row.message_id,
    attempts: row.attempts,
    requestedAt: row.requested_at.getTime(),
    startedAt: row.started_at?.getTime() ?? null,
    sentAt: row.sent_at?.getTime() ?? null,
  }));
}

/** The mock keeps this many accepted mails by default; a case sends fewer. */
const MOCK_KEPT_MAILS = 10_000;

function providerOverheads(times: SendTimes[], accepted: Array<{ messageId: string; acceptedAt: number }>, latencyMs: number) {
  const acceptedAt = new Map(accepted.map((mail) => [mail.messageId, mail.acceptedAt]));
  const claimToProvider: number[] = [];
  const replyToRecorded: number[] = [];
  for (const time of times) {
    const replied = acceptedAt.get(time.messageId);
    if (time.attempts !== 1 || replied === undefined || time.startedAt === null || time.sentAt === null) continue;
    claimToProvider.push(replied - latencyMs - time.startedAt);
    replyToRecorded.push(time.sentAt - replied);
  }
  const short = ({ p50, p99 }: { p50: number; p99: number }) => ({ p50, p99 });
  return { claimToProvider: short(spreadOf(claimToProvider)), replyToRecorded: short(spreadOf(replyToRecorded)) };
}

/** Deliveries per second between the delivery at the first tenth and the one at the last tenth. */
function steadyRate(sentAt: number[]): number {
  const sorted = Float64Array.from(sentAt).sort();
  const first = Math.floor(sorted.length * STEADY_EDGE);
  const last = Math.ceil(sorted.length * (1 - STEADY_EDGE)) - 1;
  if (last <= first || sorted[last] === sorted[first]) return 0;
  return (last - first) / ((sorted[last] - sorted[first]) / 1000);
}

function allDeliveredSeconds(times: SendTimes[]): number {
  const delivered = times.filter((time) => time.sentAt !== null);
  if (delivered.length === 0) return 0;
  const firstRequest = Math.min(...times.map((time) => time.requestedAt));
  return (Math.max(...delivered.map((time) => time.sentAt as number)) - firstRequest) / 1000;
}
