import { setTimeout as sleep } from 'node:timers/promises';
import { inboundPath, newsletterMessage } from '../data/inbound-messages';
import { INGEST_RECIPIENT_COUNT } from '../data/ingest-users';
import type { BenchFixtures } from '../harness/bench-fixtures';
import {
  coresBetween,
  INGEST_BENCH_PREFIX,
  INGEST_BENCH_TOKEN,
  IngestStack,
  MOCK_FCM_LATENCY_MS,
  pollUntil,
  postOnce,
  type QueueCounts,
} from '../harness/ingest-stack';
import { percentile } from '../harness/load-result';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import type { ProcedureOptions, ProcedureScenario } from './scenario';

const BURST = 1000;
const RUNS = 3;
/** Mails sent at once and waited for before the first run, so the apps' code is compiled and their pools open. */
const WARM_UP = BURST;
/** How long a run waits for every mail to be stored and notified. */
const TIMEOUT_MS = 60_000;
const POLL_MS = 20;
const TARGET = { ackP95Ms: 300, allWithinSeconds: 5, original: '100% accepted, acknowledgement average 2.7 s, p95 4.9 s' };

export const ingestBurstScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'ingest-burst',
  title: `${BURST.toLocaleString('en')} incoming mails posted at once: acknowledged, stored in the inboxes, notified through FCM`,
  summary:
    `starts its own ingest app (127.0.0.1:3932), ingest worker (its defaults), notify worker and mock providers (FCM ${MOCK_FCM_LATENCY_MS} ms, control :3935) ` +
    `on queue prefix ${INGEST_BENCH_PREFIX}; ${BURST} unique ~2.5 KB newsletters to ${INGEST_RECIPIENT_COUNT} recipients (${BURST / INGEST_RECIPIENT_COUNT} each, one device each), ` +
    `every request started at once, each on its own connection; ${RUNS} runs after an unmeasured one; about a minute`,
  run: runIngestBurst,
};

interface BurstRun {
  run: number;
  accepted: number;
  statuses: Record<string, number>;
  ackMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  /** From the first request, in seconds: the last acknowledgement, the last mail visible as stored, the last notification. */
  allAckedSeconds: number;
  allStoredSeconds?: number;
  allNotifiedSeconds?: number;
  /** From the first request to each mail's insert (its transaction's start) and to each notification's acceptance by the mock FCM, in seconds. */
  storedSeconds: { p50: number; p95: number; max: number };
  notifiedSeconds: { p50: number; p95: number; max: number };
  stored: number;
  notified: number;
  /** The ingest queue when the last acknowledgement came. */
  ingestQueueAtLastAck: QueueCounts;
  /** The ingest app's main thread until the last acknowledgement: seconds on a core, and seconds runnable but waiting for one. */
  ingestMainThread: { running: number; waiting: number };
  /** CPU seconds of each process from the first request until the run was over, and the machine's busy cores meanwhile. */
  cpuSeconds: Record<string, number>;
  machineBusyCores: number;
  meetsTarget: boolean;
}

async function runIngestBurst(_fixtures: BenchFixtures, options: ProcedureOptions): Promise<ProcedureOutcome> {
  const startedAt = new Date().toISOString();
  const stack = await IngestStack.open();
  const notes: string[] = [];
  const runs: BurstRun[] = [];
  try {
    await stack.registerDevices();
    await stack.startNotifyPath();
    await stack.startIngest();
    await stack.startIngestWorker({}, options.workerEnv);
    notes.push(
      `ingest app, ingest worker (INGEST_BATCH_SIZE 100, INGEST_BATCH_WAIT_MS 10, INGEST_CONCURRENCY 200: its defaults${envNote(options.workerEnv)}), ` +
        `notify worker (its defaults) and mock FCM (${MOCK_FCM_LATENCY_MS} ms) from dist/, queue prefix ${INGEST_BENCH_PREFIX}, storage in ${stack.storageDir}`,
    );
    notes.push(await warmUp(stack));
    for (let run = 1; run <= RUNS; run += 1) {
      console.log(`   run ${run} of ${RUNS} ...`);
      const result = await burst(stack, run);
      runs.push(result);
      notes.push(runNote(result));
      if (result.accepted < BURST) notes.push(`run ${run}: the ingest app's last output: ${errorLines(stack.outputTail('ingest'))}`);
      await sleep(1000);
    }
  } finally {
    notes.push(...(await stack.close()));
  }
  return {
    scenario: ingestBurstScenario.name,
    title: ingestBurstScenario.title,
    startedAt,
    notes,
    table: resultTable(runs),
    data: { burst: BURST, recipients: INGEST_RECIPIENT_COUNT, fcmLatencyMs: MOCK_FCM_LATENCY_MS, target: TARGET, workerEnvOverrides: options.workerEnv, runs },
  };
}

const HEADERS = { 'content-type': 'message/rfc822', authorization: `Bearer ${INGEST_BENCH_TOKEN}` };

/**
 * An unmeasured burst like the measured ones: with a smaller warm-up (50 mails) the first
 * measured run was the slowest of three in every invocation, as the burst's own paths
 * (1,000 connections at once, full batches) were still cold.
 */
async function warmUp(stack: IngestStack): Promise<string> {
  const tag = `warm-${Date.now().toString(36)}`;
  const answers = await Promise.all(
    Array.from({ length: WARM_UP }, (_, index) => {
      const recipient = stack.recipients[index % stack.recipients.length].email;
      return postOnce(new URL(inboundPath(recipient), stack.base), HEADERS, newsletterMessage(recipient, `${tag}-${index}@news.example.org`, index), TIMEOUT_MS);
    }),
  );
  const accepted = answers.filter((answer) => answer.status === 202).length;
  const done = await pollUntil(async () => ((await stack.storedCount()) >= accepted && (await stack.notifiedCount()) >= accepted ? true : undefined), 100, TIMEOUT_MS);
  if (!done) throw new Error(`the warm-up's ${accepted} accepted mails were not all stored and notified within ${TIMEOUT_MS / 1000} s`);
  await stack.clearMail();
  return `warm-up: an unmeasured burst of ${WARM_UP} (${accepted} accepted), stored and notified, then removed`;
}

async function burst(stack: IngestStack, run: number): Promise<BurstRun> {
  await stack.clearMail();
  const tag = `burst-${Date.now().toString(36)}-${run}`;
  const requests = Array.from({ length: BURST }, (_, index) => {
    const recipient = stack.recipients[index % stack.recipients.length].email;
    return { url: new URL(inboundPath(recipient), stack.base), body: newsletterMessage(recipient, `${tag}-${index}@news.example.org`, index) };
  });
  const cpuBefore = stack.cpuSnapshot();
  const mainBefore = stack.mainThread('ingest');
  const startEpoch = Date.now();
  const start = performance.now();
  const since = () => (performance.now() - start) / 1000;
  // Until every acknowledgement is in, every mail is expected; then only the accepted ones.
  let expected = BURST;
  const storedWatch = pollUntil(async () => ((await stack.storedCount()) >= expected ? since() : undefined), POLL_MS, TIMEOUT_MS);
  const notifiedWatch = pollUntil(async () => ((await stack.notifiedCount()) >= expected ? since() : undefined), POLL_MS, TIMEOUT_MS);

  const answers = await Promise.all(requests.map((request) => postOnce(request.url, HEADERS, request.body, TIMEOUT_MS)));
  const allAckedSeconds = since();
  const mainAfter = stack.mainThread('ingest');
  const ingestQueueAtLastAck = await stack.ingestQueueCounts();
  const accepted = answers.filter((answer) => answer.status === 202).length;
  expected = accepted;
  const [allStoredSeconds, allNotifiedSeconds] = await Promise.all([storedWatch, notifiedWatch]);
  const usage = coresBetween(cpuBefore, stack.cpuSnapshot());

  const fromStart = (epochMs: number[]) => Float64Array.from(epochMs.map((at) => (at - startEpoch) / 1000)).sort();
  const storedTimes = fromStart(await stack.storedTimes());
  const notifiedTimes = fromStart((await stack.notifications(BURST)).map((push) => push.acceptedAt));
  const latencies = Float64Array.from(answers.map((answer) => answer.ms)).sort();
  const statuses: Record<string, number> = {};
  for (const answer of answers) {
    const key = answer.status ? String(answer.status) : (answer.error ?? 'no answer');
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const ackMs = {
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1],
    mean: latencies.reduce((sum, value) => sum + value, 0) / latencies.length,
  };
  const lastOf = (sorted: Float64Array) => (sorted.length > 0 ? sorted[sorted.length - 1] : NaN);
  return {
    run,
    accepted,
    statuses,
    ackMs,
    allAckedSeconds,
    allStoredSeconds,
    allNotifiedSeconds,
    storedSeconds: { p50: percentile(storedTimes, 0.5), p95: percentile(storedTimes, 0.95), max: lastOf(storedTimes) },
    notifiedSeconds: { p50: percentile(notifiedTimes, 0.5), p95: percentile(notifiedTimes, 0.95), max: lastOf(notifiedTimes) },
    stored: storedTimes.length,
    notified: notifiedTimes.length,
    ingestQueueAtLastAck,
    ingestMainThread: { running: mainAfter.running - mainBefore.running, waiting: mainAfter.waiting - mainBefore.waiting },
    cpuSeconds: usage.cpuSeconds,
    machineBusyCores: usage.machineBusyCores,
    meetsTarget:
      accepted === BURST &&
      ackMs.p95 < TARGET.ackP95Ms &&
      allStoredSeconds !== undefined &&
      allNotifiedSeconds !== undefined &&
      Math.max(allStoredSeconds, allNotifiedSeconds) <= TARGET.allWithinSeconds,
  };
}

function runNote(result: BurstRun): string {
  const seconds = (value: number | undefined) => (value === undefined ? `not within ${TIMEOUT_MS / 1000} s` : `${value.toFixed(2)} s`);
  const cpu = Object.entries(result.cpuSeconds)
    .map(([name, value]) => `${name} ${value.toFixed(2)}`)
    .join(', ');
  return (
    `run ${result.run}: ${result.accepted}/${BURST} accepted (${Object.entries(result.statuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ')}); ack mean ${Math.round(result.ackMs.mean)} ms, p95 ${Math.round(result.ackMs.p95)} ms; ` +
    `all acked ${seconds(result.allAckedSeconds)}, all stored ${seconds(result.allStoredSeconds)}, all notified ${seconds(result.allNotifiedSeconds)} after the first request; ` +
    `until then the ingest app's main thread ran ${result.ingestMainThread.running.toFixed(2)} s and waited for a core ${result.ingestMainThread.waiting.toFixed(2)} s; ` +
    `at the last ack the ingest queue held ${result.ingestQueueAtLastAck.waiting} waiting, ${result.ingestQueueAtLastAck.active} active; ` +
    `target (100% accepted, ack p95 < ${TARGET.ackP95Ms} ms, all stored and notified within ${TARGET.allWithinSeconds} s): ${result.meetsTarget ? 'met' : 'MISSED'} ` +
    `[original: ${TARGET.original}]; CPU seconds: ${cpu}; machine ${result.machineBusyCores.toFixed(2)} busy cores`
  );
}

function resultTable(runs: BurstRun[]): ProcedureOutcome['table'] {
  const ms = (value: number) => String(Math.round(value));
  const s = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2));
  const cpu = (run: BurstRun, name: string) => (run.cpuSeconds[name] === undefined ? '—' : run.cpuSeconds[name].toFixed(2));
  return {
    header: [
      'run',
      'accepted',
      'ack p50 ms',
      'ack p95 ms',
      'ack p99 ms',
      'ack max ms',
      'all acked s',
      'stored p50 s',
      'all stored s',
      'notified p50 s',
      'all notified s',
      'target',
      'ingest main ran s',
      'waited s',
      'CPU s: ingest',
      'worker',
      'notify',
      'mock',
      'postgres',
      'redis',
      'bench',
      'others',
      'busy cores',
    ],
    rows: runs.map((run) => [
      String(run.run),
      `${run.accepted}/${BURST}`,
      ms(run.ackMs.p50),
      ms(run.ackMs.p95),
      ms(run.ackMs.p99),
      ms(run.ackMs.max),
      s(run.allAckedSeconds),
      s(run.storedSeconds.p50),
      s(run.allStoredSeconds),
      s(run.notifiedSeconds.p50),
      s(run.allNotifiedSeconds),
      run.meetsTarget ? 'met' : 'MISSED',
      s(run.ingestMainThread.running),
      s(run.ingestMainThread.waiting),
      cpu(run, 'ingest'),
      cpu(run, 'ingest-worker'),
      cpu(run, 'notify-worker'),
      cpu(run, 'mock'),
      cpu(run, 'postgres'),
      cpu(run, 'redis'),
      cpu(run, 'bench'),
      cpu(run, 'others'),
      run.machineBusyCores.toFixed(2),
    ]),
  };
}

function envNote(workerEnv: Record<string, string>): string {
  const shared = Object.entries(workerEnv).filter(([name]) => ['DATABASE_POOL_SIZE', 'UV_THREADPOOL_SIZE', 'NODE_OPTIONS'].includes(name));
  return shared.length > 0 ? `; with ${shared.map(([name, value]) => `${name}=${value}`).join(' ')}` : '';
}

/** The distinct lines of a service's output that tell of errors, ANSI colours taken out. */
function errorLines(output: string): string {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((line) => /error|exception|timeout|refused/i.test(line));
  return [...new Set(lines.map((line) => line.replace(/^.*?(ERROR|WARN)/, '$1').trim()))].slice(-5).join(' | ') || '(nothing logged)';
}
