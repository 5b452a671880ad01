import { setTimeout as sleep } from 'node:timers/promises';
import { poll } from '@letterbox/testing';
import { parseBenchArgs } from '../cli-args';
import { SignedNewsletters } from '../data/signed-newsletters';
import { INGEST_RECIPIENT_COUNT } from '../data/ingest-users';
import { runAutocannonGenerated } from '../harness/autocannon-load';
import type { BenchFixtures } from '../harness/bench-fixtures';
import { coresBetween, INGEST_BENCH_PREFIX, INGEST_BENCH_TOKEN, IngestStack, postOnce, type IngestAppName, type QueueCounts } from '../harness/ingest-stack';
import type { LoadResult } from '../harness/load-result';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import type { ProcedureOptions, ProcedureScenario } from './scenario';

const CONNECTIONS = 200;
const DEFAULT_SECONDS = 30;
const WARM_UP = 200;
const WARM_UP_CONCURRENCY = 20;
const SAMPLE_MS = 250;
/** The first part of the load, left out of the steady storing rate: the worker's ramp. */
const RAMP_SHARE = 0.2;
const MIN_DRAIN_WAIT_MS = 180_000;
/** Mails queued while the worker is paused, then stored by it alone: its own rate, without intake beside it. */
const BACKLOG = 6000;
const BACKLOG_CONCURRENCY = 64;

/**
 * batched: the worker's defaults, the mail posted to the ingest app, which checks it (SPF,
 * DKIM, DMARC, ARC against the mock DNS). checks off: the same, posted to the ingest app with
 * INGEST_VERIFY_SENDERS=false. per-message: the worker storing one message per INSERT (its
 * own transaction, its own Redis look-up and notification enqueue) with as many in flight as
 * the batched worker takes jobs: the naive way. spam check off: the batched worker with
 * SPAM_CHECK=false, its mail stored unscored: what asking rspamd about each message costs.
 */
const CASES: Array<{ label: string; env: Record<string, string>; app: IngestAppName }> = [
  { label: 'batched (worker defaults)', env: {}, app: 'ingest' },
  { label: 'batched, checks off', env: {}, app: 'ingest-unchecked' },
  { label: 'per-message (naive)', env: { INGEST_BATCH_SIZE: '1', INGEST_CONCURRENCY: '200' }, app: 'ingest' },
  { label: 'batched, spam check off', env: { SPAM_CHECK: 'false' }, app: 'ingest' },
];

export const ingestSustainedScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'ingest-sustained',
  title:
    'POST /v2/inbound with autocannon (a new Message-ID each request) while the ingest worker stores: intake rate and storing rate, batched vs one message per transaction',
  summary:
    `starts its own ingest apps (127.0.0.1:3932 checking incoming mail against its mock DNS, :3933 with the checks off) and, for each case, an ingest worker on queue prefix ${INGEST_BENCH_PREFIX} (no notify worker: notification jobs wait in the queue); ` +
    `${CONNECTIONS} connections (--connections), ${DEFAULT_SECONDS} s (--duration) per case, ~3 KB newsletters signed by pass.example (RSA and Ed25519) to ${INGEST_RECIPIENT_COUNT} recipients in turn, then waits until the backlog is stored; ` +
    `then queues ${BACKLOG} mails with the queue paused and times the worker storing them alone; ` +
    `cases: ${CASES.map((entry) => entry.label).join(', ')}; about 2 × (duration + drain) plus a minute`,
  run: runIngestSustained,
};

interface SustainedCase {
  label: string;
  /** The ingest app the mail was posted to, whose cores the table shows. */
  app: IngestAppName;
  workerEnv: Record<string, string>;
  load: LoadResult & { accepted: number };
  /** Mails stored while the load ran, per second over the whole load and over its last (1 − RAMP_SHARE). */
  storedDuringLoad: number;
  storedPerSecondDuringLoad: number;
  steadyStoredPerSecond: number;
  ingestQueueAtLoadEnd: QueueCounts;
  backlogAtLoadEnd: number;
  /** From the end of the load until the queue was empty; undefined when it was not within the wait. */
  drainSeconds?: number;
  drainStoredPerSecond?: number;
  stored: number;
  /** Everything stored ÷ time from the start of the load until the queue was empty. */
  overallStoredPerSecond: number;
  failedJobs: number;
  /** The backlog phase: BACKLOG mails queued while the queue was paused, then stored by the worker alone. */
  backlog: { mails: number; seconds?: number; storedPerSecond?: number; cores: Record<string, number>; machineBusyCores: number };
  loadCores: Record<string, number>;
  loadMachineBusyCores: number;
  drainCores: Record<string, number>;
  drainMachineBusyCores: number;
}

async function runIngestSustained(_fixtures: BenchFixtures, options: ProcedureOptions): Promise<ProcedureOutcome> {
  // The procedure interface passes no --duration/--connections; they are read as run.ts parsed them.
  const args = parseBenchArgs(process.argv.slice(2));
  const durationSeconds = args.durationSeconds ?? DEFAULT_SECONDS;
  const connections = args.connections ?? CONNECTIONS;
  const startedAt = new Date().toISOString();
  const stack = await IngestStack.open();
  const notes: string[] = [];
  const results: SustainedCase[] = [];
  try {
    await stack.startMockProviders();
    await stack.startIngest();
    await stack.startIngest({}, [], 'ingest-unchecked');
    const newsletters = await SignedNewsletters.for(stack.recipients.map((recipient) => recipient.email));
    notes.push(
      `ingest app and workers from dist/, queue prefix ${INGEST_BENCH_PREFIX}, storage in ${stack.storageDir}; ${connections} connections, ${durationSeconds} s per case`,
      await stack.spamClassifierNote(),
    );
    for (const entry of CASES) {
      console.log(`   ${entry.label}: ${connections} connections, ${durationSeconds} s, then the drain ...`);
      results.push(await runCase(stack, entry, options.workerEnv, durationSeconds, connections, newsletters));
      await sleep(2000);
    }
    const [batched, unchecked, naive, unscored] = results;
    notes.push(...results.map(caseNote));
    notes.push(
      `batched ÷ per-message: stored/s during the load ×${(batched.storedPerSecondDuringLoad / naive.storedPerSecondDuringLoad).toFixed(2)} ` +
        `(steady ×${(batched.steadyStoredPerSecond / naive.steadyStoredPerSecond).toFixed(2)}), ` +
        `overall ×${(batched.overallStoredPerSecond / naive.overallStoredPerSecond).toFixed(2)}; ` +
        `storing a ${BACKLOG}-mail backlog alone ×${ratio(batched.backlog.storedPerSecond, naive.backlog.storedPerSecond)}; ` +
        `intake req/s ×${(batched.load.requestsPerSecond / naive.load.requestsPerSecond).toFixed(2)}`,
    );
    notes.push(
      `checks on ÷ off (the target is at least ×0.8): intake req/s ×${(batched.load.requestsPerSecond / unchecked.load.requestsPerSecond).toFixed(2)}, ` +
        `stored/s during the load ×${(batched.storedPerSecondDuringLoad / unchecked.storedPerSecondDuringLoad).toFixed(2)} ` +
        `(steady ×${(batched.steadyStoredPerSecond / unchecked.steadyStoredPerSecond).toFixed(2)}), overall ×${(batched.overallStoredPerSecond / unchecked.overallStoredPerSecond).toFixed(2)}; ` +
        `storing the ${BACKLOG}-mail backlog alone ×${ratio(batched.backlog.storedPerSecond, unchecked.backlog.storedPerSecond)}`,
    );
    notes.push(
      `spam check on ÷ off (the target is at least ×0.7): stored/s during the load ×${(batched.storedPerSecondDuringLoad / unscored.storedPerSecondDuringLoad).toFixed(2)} ` +
        `(steady ×${(batched.steadyStoredPerSecond / unscored.steadyStoredPerSecond).toFixed(2)}), overall ×${(batched.overallStoredPerSecond / unscored.overallStoredPerSecond).toFixed(2)}; ` +
        `storing the ${BACKLOG}-mail backlog alone ×${ratio(batched.backlog.storedPerSecond, unscored.backlog.storedPerSecond)}`,
    );
  } finally {
    notes.push(...(await stack.close()));
  }
  return {
    scenario: ingestSustainedScenario.name,
    title: ingestSustainedScenario.title,
    startedAt,
    notes,
    table: resultTable(results),
    data: { connections, durationSeconds, recipients: INGEST_RECIPIENT_COUNT, workerEnvOverrides: options.workerEnv, cases: results },
  };
}

const HEADERS = { 'content-type': 'message/rfc822', authorization: `Bearer ${INGEST_BENCH_TOKEN}` };

/** Where a case posts its mail (its ingest app), and the signed newsletters it posts. */
interface Poster {
  base: URL;
  newsletters: SignedNewsletters;
}

async function runCase(
  stack: IngestStack,
  entry: (typeof CASES)[number],
  workerEnv: Record<string, string>,
  durationSeconds: number,
  connections: number,
  newsletters: SignedNewsletters,
): Promise<SustainedCase> {
  await stack.clear();
  await stack.startIngestWorker(entry.env, workerEnv);
  const post: Poster = { base: stack.baseOf(entry.app), newsletters };
  try {
    await warmUp(stack, post);
    const tag = `sustained-${Date.now().toString(36)}`;
    let sequence = 0;
    const next = () => {
      const index = sequence++;
      const recipient = stack.recipients[index % stack.recipients.length].email;
      return { method: 'POST' as const, path: post.newsletters.path(recipient), body: post.newsletters.body(recipient, `${tag}-${index}@pass.example`) };
    };
    const samples: Array<{ at: number; stored: number }> = [];
    const loadStart = performance.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push({ at: performance.now() - loadStart, stored: await stack.storedCount() });
        await sleep(SAMPLE_MS);
      }
    })();
    const cpuStart = stack.cpuSnapshot();
    const load = await runAutocannonGenerated({ base: post.base, connections, durationSeconds, headers: HEADERS, next });
    const cpuLoadEnd = stack.cpuSnapshot();
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const storedDuringLoad = await stack.storedCount();
    const ingestQueueAtLoadEnd = await stack.ingestQueueCounts();
    const drainWaitMs = Math.max(MIN_DRAIN_WAIT_MS, 6 * durationSeconds * 1000);
    const drained = await poll(
      async () => {
        const counts = await stack.ingestQueueCounts();
        return counts.waiting + counts.active === 0 ? performance.now() : undefined;
      },
      { intervalMs: 100, timeoutMs: drainWaitMs },
    );
    const cpuDrainEnd = stack.cpuSnapshot();
    sampling = false;
    await sampler;
    const stored = await stack.storedCount();
    const endSeconds = ((drained ?? performance.now()) - loadStart) / 1000;
    const drainSeconds = drained === undefined ? undefined : endSeconds - loadSeconds;
    const during = coresBetween(cpuStart, cpuLoadEnd);
    const drain = coresBetween(cpuLoadEnd, cpuDrainEnd);
    const failedJobs = await stack.failedIngestJobs();
    const backlog = await backlogPhase(stack, tag, post);
    return {
      label: entry.label,
      app: entry.app,
      workerEnv: entry.env,
      load,
      storedDuringLoad,
      storedPerSecondDuringLoad: storedDuringLoad / loadSeconds,
      steadyStoredPerSecond: steadyRate(samples, loadSeconds),
      ingestQueueAtLoadEnd,
      backlogAtLoadEnd: ingestQueueAtLoadEnd.waiting + ingestQueueAtLoadEnd.active,
      drainSeconds,
      drainStoredPerSecond: drainSeconds === undefined ? undefined : (stored - storedDuringLoad) / drainSeconds,
      stored,
      overallStoredPerSecond: stored / endSeconds,
      failedJobs,
      backlog,
      loadCores: during.cores,
      loadMachineBusyCores: during.machineBusyCores,
      drainCores: drain.cores,
      drainMachineBusyCores: drain.machineBusyCores,
    };
  } finally {
    await stack.stopIngestWorker();
  }
}

/**
 * Queues BACKLOG mails while the queue is paused (the worker waits, warm from the load),
 * then releases it and times until every one is stored: the worker's own rate.
 */
async function backlogPhase(stack: IngestStack, tag: string, post: Poster): Promise<SustainedCase['backlog']> {
  await stack.clearMail();
  await stack.pauseIngestQueue();
  try {
    let next = 0;
    const fill = async () => {
      while (next < BACKLOG) {
        const index = next++;
        const recipient = stack.recipients[index % stack.recipients.length].email;
        const answer = await postOnce(
          new URL(post.newsletters.path(recipient), post.base),
          HEADERS,
          post.newsletters.body(recipient, `${tag}-backlog-${index}@pass.example`),
          30_000,
        );
        if (answer.status !== 202) throw new Error(`a backlog mail was refused: ${answer.status || answer.error}`);
      }
    };
    await Promise.all(Array.from({ length: BACKLOG_CONCURRENCY }, fill));
  } finally {
    await stack.resumeIngestQueue();
  }
  const cpuStart = stack.cpuSnapshot();
  const start = performance.now();
  const done = await poll(async () => ((await stack.storedCount()) >= BACKLOG ? performance.now() : undefined), {
    intervalMs: 50,
    timeoutMs: MIN_DRAIN_WAIT_MS,
  });
  const usage = coresBetween(cpuStart, stack.cpuSnapshot());
  const seconds = done === undefined ? undefined : (done - start) / 1000;
  await stack.clearMail();
  return {
    mails: BACKLOG,
    seconds,
    storedPerSecond: seconds === undefined ? undefined : BACKLOG / seconds,
    cores: usage.cores,
    machineBusyCores: usage.machineBusyCores,
  };
}

/** Mails stored per second over the load after its ramp, from the samples. */
function steadyRate(samples: Array<{ at: number; stored: number }>, loadSeconds: number): number {
  const inLoad = samples.filter((sample) => sample.at <= loadSeconds * 1000);
  const from = inLoad.find((sample) => sample.at >= RAMP_SHARE * loadSeconds * 1000);
  const to = inLoad[inLoad.length - 1];
  if (!from || !to || to.at <= from.at) return NaN;
  return ((to.stored - from.stored) / (to.at - from.at)) * 1000;
}

async function warmUp(stack: IngestStack, post: Poster): Promise<void> {
  const tag = `warm-${Date.now().toString(36)}`;
  for (let start = 0; start < WARM_UP; start += WARM_UP_CONCURRENCY) {
    const answers = await Promise.all(
      Array.from({ length: WARM_UP_CONCURRENCY }, (_, offset) => {
        const recipient = stack.recipients[(start + offset) % stack.recipients.length].email;
        return postOnce(
          new URL(post.newsletters.path(recipient), post.base),
          HEADERS,
          post.newsletters.body(recipient, `${tag}-${start + offset}@pass.example`),
          30_000,
        );
      }),
    );
    const refused = answers.filter((answer) => answer.status !== 202);
    if (refused.length > 0) throw new Error(`the warm-up's mails were refused: ${refused.map((answer) => answer.status || answer.error).join(', ')}`);
  }
  const done = await poll(async () => ((await stack.storedCount()) >= WARM_UP ? true : undefined), { intervalMs: 100, timeoutMs: 60_000 });
  if (!done) throw new Error(`the warm-up's ${WARM_UP} mails were not stored within 60 s`);
  await stack.clearMail();
}

function caseNote(result: SustainedCase): string {
  const cores = (values: Record<string, number>) =>
    Object.entries(values)
      .map(([name, value]) => `${name} ${value.toFixed(2)}`)
      .join(', ');
  return (
    `${result.label}: ${result.load.accepted} accepted (${result.load.requestsPerSecond.toFixed(0)}/s), ${result.load.non2xx} non-2xx, ${result.load.socketErrors} socket errors; ` +
    `${result.storedDuringLoad} stored during the load (${result.storedPerSecondDuringLoad.toFixed(0)}/s, ${result.steadyStoredPerSecond.toFixed(0)}/s after the first ${RAMP_SHARE * 100}%), ` +
    `backlog at its end ${result.backlogAtLoadEnd} (${result.ingestQueueAtLoadEnd.active} active), ` +
    (result.drainSeconds === undefined
      ? 'NOT drained in time'
      : `drained in ${result.drainSeconds.toFixed(1)} s (${result.drainStoredPerSecond?.toFixed(0)}/s)`) +
    `; ${result.stored} stored in all, ${result.failedJobs} failed jobs; CPU cores during the load: ${cores(result.loadCores)}, machine ${result.loadMachineBusyCores.toFixed(2)}; ` +
    `during the drain: ${cores(result.drainCores)}, machine ${result.drainMachineBusyCores.toFixed(2)}; ` +
    `backlog of ${result.backlog.mails} stored alone ` +
    (result.backlog.seconds === undefined ? 'NOT in time' : `in ${result.backlog.seconds.toFixed(1)} s (${result.backlog.storedPerSecond?.toFixed(0)}/s)`) +
    `, CPU cores: ${cores(result.backlog.cores)}, machine ${result.backlog.machineBusyCores.toFixed(2)}`
  );
}

function resultTable(results: SustainedCase[]): ProcedureOutcome['table'] {
  const n = (value: number | undefined, digits = 0) => (value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits));
  const core = (values: Record<string, number>, name: string) => n(values[name], 2);
  return {
    header: [
      'case',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'errors',
      'accepted',
      'stored/s in load',
      'steady/s',
      'backlog at end',
      'drain s',
      'drain/s',
      'overall/s',
      'load cores: ingest',
      'worker',
      'postgres',
      'redis',
      'bench',
      'others',
      'machine',
      'backlog/s',
      'backlog cores: worker',
      'postgres',
      'redis',
      'others',
    ],
    rows: results.map((result) => [
      result.label,
      n(result.load.requestsPerSecond),
      n(result.load.latencyMs.p50),
      n(result.load.latencyMs.p95),
      n(result.load.latencyMs.p99),
      String(result.load.non2xx + result.load.socketErrors),
      String(result.load.accepted),
      n(result.storedPerSecondDuringLoad),
      n(result.steadyStoredPerSecond),
      String(result.backlogAtLoadEnd),
      n(result.drainSeconds, 1),
      // A drain of a few mails says nothing of a rate.
      result.backlogAtLoadEnd >= 100 ? n(result.drainStoredPerSecond) : '—',
      n(result.overallStoredPerSecond),
      core(result.loadCores, result.app),
      core(result.loadCores, 'ingest-worker'),
      core(result.loadCores, 'postgres'),
      core(result.loadCores, 'redis'),
      core(result.loadCores, 'bench'),
      core(result.loadCores, 'others'),
      n(result.loadMachineBusyCores, 2),
      n(result.backlog.storedPerSecond),
      core(result.backlog.cores, 'ingest-worker'),
      core(result.backlog.cores, 'postgres'),
      core(result.backlog.cores, 'redis'),
      core(result.backlog.cores, 'others'),
    ]),
  };
}

function ratio(ours: number | undefined, naive: number | undefined): string {
  return ours === undefined || naive === undefined ? 'n/a' : (ours / naive).toFixed(2);
}
