import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { jobIdOf } from '@letterbox/queue';
import { poll } from '@letterbox/testing';
import { countsOf, startDeliveryWorker } from './bench-apps';
import type { ChildService } from './child-service';
import { queueSends, type DeliveryCase, type DeliveryEnvironment } from './delivery-run';
import { percentile } from './load-result';
import { discardSends, sendStatusCounts, undelivered } from './send-queue';

const POLL_INTERVAL_MS = 100;
/** The mock keeps this many accepted mails by default; a case sends far fewer, duplicates included. */
const MOCK_KEPT_MAILS = 10_000;

export interface CrashCase extends Pick<DeliveryCase, 'senders' | 'sendsPerSender' | 'workerEnv' | 'workerBuild'> {
  label: string;
  /** The share of the sends the provider has accepted when the worker is killed. */
  killAfterShare: number;
}

export interface CrashCaseResult {
  label: string;
  sends: number;
  workerEnv: Record<string, string>;
  queueingErrors: number;
  /** Sends `sending` when the worker was killed: taken by it, not recorded delivered. */
  inFlightAtKill: number;
  /** Of those, the ones whose job BullMQ's stalled check put back in the queue. */
  foundStalled: number;
  /** From the kill to the stalled check putting each back, in ms. */
  killToStalledMs: { first: number; p50: number; last: number };
  /** From the kill to `sent` for the sends in flight at the kill: how long they stayed `sending`, in ms. */
  killToSentMs: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
  /** Messages the provider accepted for the case's sends, and how many of them repeated a Message-ID it had. */
  accepted: number;
  duplicates: number;
  /** Sends of which the provider never accepted a message. */
  lost: number;
  timedOut: boolean;
}

/**
 * One crash case: a worker starts delivering the case's sends (all queued first), is
 * SIGKILLed once the provider accepted the given share, and a new worker with the same
 * settings is started at once. It waits (bounded) until every send is sent, lets the
 * provider answer what the killed worker had handed it, then counts at the provider.
 */
export async function runCrashCase(environment: DeliveryEnvironment, crashCase: CrashCase, timeoutSeconds: number): Promise<CrashCaseResult> {
  const { sendApi, sql, queue, mock } = environment;
  const provider = await mock.config();
  const emails = crashCase.senders.map((sender) => sender.email);
  const userIds = crashCase.senders.map((sender) => sender.userId);
  await mock.reset();
  // A previous case may have emptied these senders' token buckets in Redis: they refill within burst ÷ rate.
  await sleep(Math.ceil((provider.burst / provider.ratePerSecond) * 1000) + 200);
  const stalled = await queue.watchStalled();
  let worker = await startDeliveryWorker(queue, crashCase.workerEnv, crashCase.workerBuild);
  try {
    // Queued before any delivery, so the kill falls mid-delivery, not mid-queueing.
    await queue.pause();
    let queued: { ids: number[]; errors: number };
    try {
      queued = await queueSends(sendApi, crashCase);
    } finally {
      await queue.resume();
    }
    const { ids } = queued;
    const deadline = Date.now() + timeoutSeconds * 1000;
    const killAt = Math.ceil(ids.length * crashCase.killAfterShare);
    await untilDoneWhileWorkerLives(async () => countsOf(await mock.counts(), emails).accepted >= killAt, deadline, worker);
    await worker.kill();
    const killedAt = Date.now();
    const inFlight = await sendingNow(sql, ids);
    worker = await startDeliveryWorker(queue, crashCase.workerEnv, crashCase.workerBuild);
    await untilDoneWhileWorkerLives(async () => undelivered(await sendStatusCounts(sql, { userIds, ids })) === 0, deadline, worker);
    const statuses = await sendStatusCounts(sql, { userIds, ids });
    const timedOut = undelivered(statuses) > 0;
    // The provider answers what the killed worker handed it after its latency, whatever became of the worker.
    await sleep(provider.latencyMs + 1000);
    const messageIds = await messageIdsOf(sql, ids);
    const acceptedIds = (await mock.accepted(MOCK_KEPT_MAILS)).map((mail) => mail.messageId).filter((messageId) => messageIds.has(messageId));
    const distinct = new Set(acceptedIds);
    const stalledAt = inFlight.map((sendId) => stalled.foundStalledAt(jobIdOf('deliver-send', { sendId }))).filter((at): at is number => at !== undefined);
    const sentAt = await sentTimes(sql, inFlight);
    if (timedOut) await discardSends(sql, queue, { userIds, ids }, 'not delivered within the crash benchmark timeout');
    return {
      label: crashCase.label,
      sends: ids.length,
      workerEnv: crashCase.workerEnv,
      queueingErrors: queued.errors,
      inFlightAtKill: inFlight.length,
      foundStalled: stalledAt.length,
      killToStalledMs: firstMiddleLast(stalledAt.map((at) => at - killedAt)),
      killToSentMs: spread(sentAt.map((at) => at - killedAt)),
      statuses,
      accepted: acceptedIds.length,
      duplicates: acceptedIds.length - distinct.size,
      lost: messageIds.size - distinct.size,
      timedOut,
    };
  } finally {
    await worker.stop();
    await stalled.close();
  }
}

/** Polls until `done` or the deadline; fails at the worker's own death. */
async function untilDoneWhileWorkerLives(done: () => Promise<boolean>, deadline: number, worker: ChildService): Promise<void> {
  await poll(
    async () => {
      if (await done()) return true;
      const exit = worker.unexpectedExit();
      if (exit) throw new Error(`the delivery worker ${exit}`);
      return false;
    },
    { timeoutMs: deadline - Date.now(), intervalMs: POLL_INTERVAL_MS },
  );
}

async function sendingNow(sql: Pool, ids: number[]): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(`SELECT id FROM outbound_sends WHERE id = ANY($1::bigint[]) AND status = 'sending'`, [ids]);
  return rows.map((row) => Number(row.id));
}

/** When each of the sends that went out was recorded sent, in ms since the epoch. */
async function sentTimes(sql: Pool, ids: number[]): Promise<number[]> {
  const { rows } = await sql.query<{ sent_at: Date }>('SELECT sent_at FROM outbound_sends WHERE id = ANY($1::bigint[]) AND sent_at IS NOT NULL', [ids]);
  return rows.map((row) => row.sent_at.getTime());
}

async function messageIdsOf(sql: Pool, ids: number[]): Promise<Set<string>> {
  const { rows } = await sql.query<{ message_id: string }>(`SELECT request->>'messageId' AS message_id FROM outbound_sends WHERE id = ANY($1::bigint[])`, [
    ids,
  ]);
  return new Set(rows.map((row) => row.message_id));
}

function firstMiddleLast(values: number[]): { first: number; p50: number; last: number } {
  const sorted = Float64Array.from(values).sort();
  return { first: sorted[0] ?? 0, p50: percentile(sorted, 0.5), last: sorted[sorted.length - 1] ?? 0 };
}

function spread(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0 };
}
