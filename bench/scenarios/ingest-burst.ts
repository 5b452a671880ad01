import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { poll } from '@letterbox/testing';
import { CHECKED_ORIGIN, SignedNewsletters } from '../data/signed-newsletters';
import { INGEST_RECIPIENT_COUNT } from '../data/ingest-users';
import { TWENTY_RULES } from '../data/twenty-rules';
import type { BenchFixtures } from '../harness/bench-fixtures';
import {
  coresBetween,
  INGEST_BENCH_MOCK_DNS_PORT,
  INGEST_BENCH_PREFIX,
  INGEST_BENCH_TOKEN,
  IngestStack,
  MOCK_FCM_LATENCY_MS,
  postOnce,
  type QueueCounts,
} from '../harness/ingest-stack';
import { percentile } from '../harness/load-result';
import { startNaiveServer, type NaiveServer } from '../harness/naive-server';
import { mainThreadSchedSeconds, treeCpuSeconds } from '../harness/process-tree';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import type { ProcedureOptions, ProcedureScenario } from './scenario';

const BURST = 1000;
const RUNS = 3;
/** Mails sent at once and waited for before the first run, so the apps' code is compiled and their pools open. */
const WARM_UP = BURST;
/** How long a run waits for every mail to be stored and notified. */
const TIMEOUT_MS = 60_000;
const POLL_MS = 20;
/** Met when every mail is accepted, the floor's ack p95 ÷ the intake's is at least floorRatio, and all are stored and notified within allWithinSeconds. */
const TARGET = { ackP95Ms: 300, floorRatio: 0.7, allWithinSeconds: 2, original: '100% accepted, acknowledgement average 2.7 s, p95 4.9 s' };
const FLOOR_PORT = 3936;
const BASELINE_PORT = 3937;

/**
 * What a burst is posted to, each in every run: the bare floor, the intake before the spool
 * (baseline), the ingest app, the same app with its checks of incoming mail off, and the ingest
 * app again with a 20-rule Sieve script on every recipient.
 */
interface BurstTarget {
  name: 'floor' | 'baseline' | 'ingest app' | 'ingest app, checks off' | 'ingest app, 20 rules each';
  base: URL;
  pid: number;
  /** Whether it stores: the floor only answers. */
  stores: boolean;
  /** Each recipient has the 20-rule script (bench/data/twenty-rules.ts) while its bursts run. */
  rules?: true;
}

export const ingestBurstScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'ingest-burst',
  title: `${BURST.toLocaleString('en')} incoming mails posted at once: acknowledged, stored in the inboxes, notified through FCM`,
  summary:
    `starts its own ingest app (127.0.0.1:3932), ingest worker (its defaults), notify worker and mock providers (FCM ${MOCK_FCM_LATENCY_MS} ms, control :3935) ` +
    `and, to post the same bursts to in each run, a bare Fastify floor (bench/naive/intake-floor-server.ts, :${FLOOR_PORT}) and the intake before the spool (bench/naive/naive-ingest-server.ts, :${BASELINE_PORT}) ` +
    `on queue prefix ${INGEST_BENCH_PREFIX}; ${BURST} unique ~2.5 KB newsletters to ${INGEST_RECIPIENT_COUNT} recipients (${BURST / INGEST_RECIPIENT_COUNT} each, one device each), ` +
    `every request started at once, each on its own connection; ${RUNS} runs after an unmeasured one; about a minute`,
  run: runIngestBurst,
};

interface BurstRun {
  run: number;
  target: BurstTarget['name'];
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
  /** The floor's ack p95 ÷ this target's: 1 is as fast as a server that stores nothing. */
  floorRatio?: number;
  /** The target's main thread until the last acknowledgement: seconds on a core, and seconds runnable but waiting for one. */
  ingestMainThread: { running: number; waiting: number };
  /** The target's CPU seconds until the last acknowledgement. */
  targetCpuSeconds: number;
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
  const naive: NaiveServer[] = [];
  try {
    await stack.registerDevices();
    await stack.startNotifyPath();
    const ingest = await stack.startIngest();
    const unchecked = await stack.startIngest({}, [], 'ingest-unchecked');
    const newsletters = await SignedNewsletters.for(stack.recipients.map((recipient) => recipient.email));
    await stack.startIngestWorker({}, options.workerEnv);
    const floor = await startNaiveServer({
      file: path.join(__dirname, '../naive/intake-floor-server.ts'),
      port: FLOOR_PORT,
      portVariable: 'INTAKE_FLOOR_PORT',
    });
    naive.push(floor);
    const baseline = await startNaiveServer({
      file: path.join(__dirname, '../naive/naive-ingest-server.ts'),
      port: BASELINE_PORT,
      portVariable: 'NAIVE_INGEST_PORT',
      env: { QUEUE_PREFIX: INGEST_BENCH_PREFIX, STORAGE_DIR: stack.storageDir, STORAGE_COMPRESS: 'none', LOG_LEVEL: 'warn' },
    });
    naive.push(baseline);
    const targets: BurstTarget[] = [
      { name: 'floor', base: floor.base, pid: floor.pid, stores: false },
      { name: 'baseline', base: baseline.base, pid: baseline.pid, stores: true },
      { name: 'ingest app', base: stack.baseOf('ingest'), pid: ingest.pid, stores: true },
      { name: 'ingest app, checks off', base: stack.baseOf('ingest-unchecked'), pid: unchecked.pid, stores: true },
      { name: 'ingest app, 20 rules each', base: stack.baseOf('ingest'), pid: ingest.pid, stores: true, rules: true },
    ];
    notes.push(
      `every mail a ~3 KB newsletter from pass.example signed with its RSA-2048 and Ed25519 test keys, posted with ${CHECKED_ORIGIN}: ` +
        `the ingest app checks SPF, both signatures, DMARC and ARC against the mock DNS (127.0.0.1:${INGEST_BENCH_MOCK_DNS_PORT}, answers cached within their TTL) and prepends its trace headers; ` +
        `the same app with INGEST_VERIFY_SENDERS=false stores them as they came`,
      `ingest apps, ingest worker (INGEST_BATCH_SIZE 100, INGEST_BATCH_WAIT_MS 10, INGEST_CONCURRENCY 200: its defaults${envNote(options.workerEnv)}), ` +
        `notify worker (its defaults) and mock FCM (${MOCK_FCM_LATENCY_MS} ms) from dist/, queue prefix ${INGEST_BENCH_PREFIX}, storage in ${stack.storageDir}`,
      await stack.spamClassifierNote(),
    );
    for (const target of targets) notes.push(await withRules(stack, target, () => warmUp(stack, target, newsletters)));
    for (let run = 1; run <= RUNS; run += 1) {
      console.log(`   run ${run} of ${RUNS} ...`);
      let floorP95: number | undefined;
      // The same burst to each in turn, within seconds: the machine is the same for all three.
      for (const target of targets) {
        const result = await withRules(stack, target, () => burst(stack, run, target, floorP95, newsletters));
        if (target.name === 'floor') floorP95 = result.ackMs.p95;
        runs.push(result);
        notes.push(runNote(result));
        if (result.accepted < BURST && target.name !== 'floor' && target.name !== 'baseline')
          notes.push(
            `run ${run}: the ${target.name}'s last output: ${errorLines(stack.outputTail(target.name === 'ingest app' ? 'ingest' : 'ingest-unchecked'))}`,
          );
        await sleep(1000);
      }
    }
    notes.push(checksCostNote(runs), rulesCostNote(runs));
  } finally {
    for (const server of naive) await server.stop();
    notes.push(...(await stack.close()));
  }
  return {
    scenario: ingestBurstScenario.name,
    title: ingestBurstScenario.title,
    startedAt,
    notes,
    table: resultTable(runs),
    data: {
      burst: BURST,
      recipients: INGEST_RECIPIENT_COUNT,
      fcmLatencyMs: MOCK_FCM_LATENCY_MS,
      target: TARGET,
      workerEnvOverrides: options.workerEnv,
      runs,
      summary: summaryOf(runs),
    },
  };
}

const HEADERS = { 'content-type': 'message/rfc822', authorization: `Bearer ${INGEST_BENCH_TOKEN}` };

/** Runs `work` with the 20-rule script on every recipient when the target asks for it, and their rules removed after. */
async function withRules<T>(stack: IngestStack, target: BurstTarget, work: () => Promise<T>): Promise<T> {
  if (!target.rules) return work();
  await stack.sql.query(`INSERT INTO mailboxes (user_id, name, role) SELECT id, 'Archive', 'custom' FROM unnest($1::int[]) AS id ON CONFLICT DO NOTHING`, [
    stack.recipients.map((recipient) => recipient.id),
  ]);
  await stack.sql.query(
    'INSERT INTO sieve_scripts (user_id, script) SELECT id, $2 FROM unnest($1::int[]) AS id ON CONFLICT (user_id) DO UPDATE SET script = EXCLUDED.script, updated_at = now()',
    [stack.recipients.map((recipient) => recipient.id), TWENTY_RULES],
  );
  try {
    return await work();
  } finally {
    await stack.sql.query('DELETE FROM sieve_scripts WHERE user_id = ANY($1::int[])', [stack.recipients.map((recipient) => recipient.id)]);
  }
}

/**
 * An unmeasured burst like the measured ones: with a smaller warm-up (50 mails) the first
 * measured run was the slowest of three in every invocation, as the burst's own paths
 * (1,000 connections at once, full batches) were still cold.
 */
async function warmUp(stack: IngestStack, target: BurstTarget, newsletters: SignedNewsletters): Promise<string> {
  const tag = `warm-${Date.now().toString(36)}`;
  const answers = await Promise.all(
    Array.from({ length: WARM_UP }, (_, index) => {
      const recipient = stack.recipients[index % stack.recipients.length].email;
      return postOnce(new URL(newsletters.path(recipient), target.base), HEADERS, newsletters.body(recipient, `${tag}-${index}@pass.example`), TIMEOUT_MS);
    }),
  );
  const accepted = answers.filter((answer) => answer.status === 202).length;
  if (!target.stores) return `warm-up of the ${target.name}: an unmeasured burst of ${WARM_UP} (${accepted} answered 202)`;
  const done = await poll(async () => ((await stack.storedCount()) >= accepted && (await stack.notifiedCount()) >= accepted ? true : undefined), {
    intervalMs: 100,
    timeoutMs: TIMEOUT_MS,
  });
  if (!done) throw new Error(`the warm-up's ${accepted} accepted mails (${target.name}) were not all stored and notified within ${TIMEOUT_MS / 1000} s`);
  await stack.clearMail();
  return `warm-up of the ${target.name}: an unmeasured burst of ${WARM_UP} (${accepted} accepted), stored and notified, then removed`;
}

async function burst(stack: IngestStack, run: number, target: BurstTarget, floorP95: number | undefined, newsletters: SignedNewsletters): Promise<BurstRun> {
  await stack.clearMail();
  const tag = `burst-${Date.now().toString(36)}-${run}`;
  const requests = Array.from({ length: BURST }, (_, index) => {
    const recipient = stack.recipients[index % stack.recipients.length].email;
    return { url: new URL(newsletters.path(recipient), target.base), body: newsletters.body(recipient, `${tag}-${index}@pass.example`) };
  });
  const cpuBefore = stack.cpuSnapshot();
  const mainBefore = mainThreadSchedSeconds(target.pid);
  const targetCpuBefore = treeCpuSeconds(target.pid);
  const startEpoch = Date.now();
  const start = performance.now();
  const since = () => (performance.now() - start) / 1000;
  // Until every acknowledgement is in, every mail is expected; then only the accepted ones.
  let expected = BURST;
  const watch = (count: () => Promise<number>) =>
    target.stores ? poll(async () => ((await count()) >= expected ? since() : undefined), { intervalMs: POLL_MS, timeoutMs: TIMEOUT_MS }) : undefined;
  const storedWatch = watch(() => stack.storedCount());
  const notifiedWatch = watch(() => stack.notifiedCount());

  const answers = await Promise.all(requests.map((request) => postOnce(request.url, HEADERS, request.body, TIMEOUT_MS)));
  const allAckedSeconds = since();
  const mainAfter = mainThreadSchedSeconds(target.pid);
  const targetCpuSeconds = treeCpuSeconds(target.pid) - targetCpuBefore;
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
  const floorRatio = floorP95 === undefined ? undefined : floorP95 / ackMs.p95;
  return {
    run,
    target: target.name,
    accepted,
    statuses,
    ackMs,
    floorRatio,
    allAckedSeconds,
    allStoredSeconds,
    allNotifiedSeconds,
    storedSeconds: { p50: percentile(storedTimes, 0.5), p95: percentile(storedTimes, 0.95), max: lastOf(storedTimes) },
    notifiedSeconds: { p50: percentile(notifiedTimes, 0.5), p95: percentile(notifiedTimes, 0.95), max: lastOf(notifiedTimes) },
    stored: storedTimes.length,
    notified: notifiedTimes.length,
    ingestQueueAtLastAck,
    ingestMainThread: { running: mainAfter.running - mainBefore.running, waiting: mainAfter.waiting - mainBefore.waiting },
    targetCpuSeconds,
    cpuSeconds: usage.cpuSeconds,
    machineBusyCores: usage.machineBusyCores,
    meetsTarget:
      target.stores &&
      accepted === BURST &&
      floorRatio !== undefined &&
      floorRatio >= TARGET.floorRatio &&
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
  const ratio = result.floorRatio === undefined ? '' : `, floor p95 ÷ this p95 ${result.floorRatio.toFixed(2)}`;
  const target =
    result.target === 'floor'
      ? ''
      : `target (100% accepted, floor p95 ÷ ack p95 ≥ ${TARGET.floorRatio}, all stored and notified within ${TARGET.allWithinSeconds} s): ${result.meetsTarget ? 'met' : 'MISSED'}; `;
  return (
    `run ${result.run}, ${result.target}: ${result.accepted}/${BURST} accepted (${Object.entries(result.statuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ')}); ack mean ${Math.round(result.ackMs.mean)} ms, p95 ${Math.round(result.ackMs.p95)} ms${ratio}; ` +
    `all acked ${seconds(result.allAckedSeconds)}, all stored ${seconds(result.allStoredSeconds)}, all notified ${seconds(result.allNotifiedSeconds)} after the first request; ` +
    `until then its main thread ran ${result.ingestMainThread.running.toFixed(2)} s and waited for a core ${result.ingestMainThread.waiting.toFixed(2)} s, and it used ${result.targetCpuSeconds.toFixed(2)} CPU-s; ` +
    `at the last ack the ingest queue held ${result.ingestQueueAtLastAck.waiting} waiting, ${result.ingestQueueAtLastAck.active} active; ` +
    `${target}ack p95 < ${TARGET.ackP95Ms} ms: ${result.ackMs.p95 < TARGET.ackP95Ms ? 'yes' : 'no'} ` +
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
      'posted to',
      'accepted',
      'ack p50 ms',
      'ack p95 ms',
      'ack p99 ms',
      'ack max ms',
      'floor p95 ÷ p95',
      'all acked s',
      'stored p50 s',
      'all stored s',
      'notified p50 s',
      'all notified s',
      'target',
      'its main ran s',
      'waited s',
      'its CPU s to last ack',
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
      run.target,
      `${run.accepted}/${BURST}`,
      ms(run.ackMs.p50),
      ms(run.ackMs.p95),
      ms(run.ackMs.p99),
      ms(run.ackMs.max),
      s(run.floorRatio),
      s(run.allAckedSeconds),
      s(run.storedSeconds.p50),
      s(run.allStoredSeconds),
      s(run.notifiedSeconds.p50),
      s(run.allNotifiedSeconds),
      run.target === 'floor' ? '—' : run.meetsTarget ? 'met' : 'MISSED',
      s(run.ingestMainThread.running),
      s(run.ingestMainThread.waiting),
      s(run.targetCpuSeconds),
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

function median(values: Array<number | undefined>): number | undefined {
  const known = values.filter((value): value is number => value !== undefined && Number.isFinite(value)).sort((a, b) => a - b);
  return known.length === 0 ? undefined : known[Math.floor((known.length - 1) / 2)];
}

/** What checking incoming mail costs: the checking app's intake and storing rates beside the unchecked app's, medians over the runs. */
function checksCostNote(runs: BurstRun[]): string {
  const rates = (name: BurstTarget['name']) => {
    const of = runs.filter((run) => run.target === name);
    return {
      intake: median(of.map((run) => run.accepted / run.allAckedSeconds)),
      storing: median(of.map((run) => (run.allStoredSeconds === undefined ? undefined : run.stored / run.allStoredSeconds))),
    };
  };
  const checked = rates('ingest app');
  const unchecked = rates('ingest app, checks off');
  const rate = (value: number | undefined) => (value === undefined ? '—' : `${Math.round(value)}/s`);
  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '—' : `×${(a / b).toFixed(2)}`);
  return (
    `checks on ÷ off (medians over ${RUNS} runs; the target is at least ×0.8): intake ${rate(checked.intake)} ÷ ${rate(unchecked.intake)} ${ratio(checked.intake, unchecked.intake)}, ` +
    `storing ${rate(checked.storing)} ÷ ${rate(unchecked.storing)} ${ratio(checked.storing, unchecked.storing)} (mails ÷ seconds from the first request to the last acknowledgement, and to the last mail stored)`
  );
}

/** What a 20-rule script on every recipient costs the storing: the ingest app's bursts with and without it. */
function rulesCostNote(runs: BurstRun[]): string {
  const storing = (name: BurstTarget['name']) =>
    median(runs.filter((run) => run.target === name).map((run) => (run.allStoredSeconds === undefined ? undefined : run.stored / run.allStoredSeconds)));
  const [withRules, without] = [storing('ingest app, 20 rules each'), storing('ingest app')];
  const rate = (value: number | undefined) => (value === undefined ? '—' : `${Math.round(value)}/s`);
  return (
    `20 rules each ÷ no rules (medians over ${RUNS} runs): storing ${rate(withRules)} ÷ ${rate(without)} ` +
    `${withRules === undefined || without === undefined ? '—' : `×${(withRules / without).toFixed(2)}`} (mails ÷ seconds from the first request to the last mail stored)`
  );
}

/** Each target's medians over the runs: the figures to quote. */
function summaryOf(runs: BurstRun[]): Record<string, Record<string, number | undefined>> {
  const targets = [...new Set(runs.map((run) => run.target))];
  return Object.fromEntries(
    targets.map((name) => {
      const of = runs.filter((run) => run.target === name);
      return [
        name,
        {
          ackP50Ms: median(of.map((run) => run.ackMs.p50)),
          ackP95Ms: median(of.map((run) => run.ackMs.p95)),
          ackP99Ms: median(of.map((run) => run.ackMs.p99)),
          floorRatio: median(of.map((run) => run.floorRatio)),
          allStoredSeconds: median(of.map((run) => run.allStoredSeconds)),
          allNotifiedSeconds: median(of.map((run) => run.allNotifiedSeconds)),
          cpuSecondsToLastAck: median(of.map((run) => run.targetCpuSeconds)),
        },
      ];
    }),
  );
}

function envNote(workerEnv: Record<string, string>): string {
  const shared = Object.entries(workerEnv).filter(([name]) => ['DATABASE_POOL_SIZE', 'UV_THREADPOOL_SIZE', 'NODE_OPTIONS'].includes(name));
  return shared.length > 0 ? `; with ${shared.map(([name, value]) => `${name}=${value}`).join(' ')}` : '';
}

/** The distinct lines of a service's output that tell of errors, ANSI colours taken out. */
function errorLines(output: string): string {
  const lines = output
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => /error|exception|timeout|refused/i.test(line));
  return [...new Set(lines.map((line) => line.replace(/^.*?(ERROR|WARN)/, '$1').trim()))].slice(-5).join(' | ') || '(nothing logged)';
}
