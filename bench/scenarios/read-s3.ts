import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '../harness/api-client';
import { BENCH_S3_DIR, BENCH_S3_PORT, startBenchS3, type BenchS3 } from '../harness/bench-s3';
import { BenchFixtures } from '../harness/bench-fixtures';
import type { Measurement } from '../harness/measure';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import { serverRootPid, treeCpuSeconds } from '../harness/process-tree';
import { copyReferenceBlobs } from '../harness/reference-blobs';
import { runLoadScenario } from '../harness/run-scenario';
import { S3_READ_API_PORT, startS3ReadApi } from '../harness/s3-read-api';
import { BACKEND_TABLE_HEADER, backendRows, type BackendPair } from '../report/backend-table';
import { count, megabytes, ratio } from '../report/format';
import { measurementLine } from '../report/print-outcome';
import { attachment16mScenario } from './attachment-16m';
import { detail22mScenario } from './detail-22m';
import { detail4kScenario } from './detail-4k';
import { detail712kScenario } from './detail-712k';
import { raw22mScenario } from './raw-22m';
import type { LoadScenario, ProcedureOptions, ProcedureScenario } from './scenario';

/** The read scenarios that read blobs; the others read only the database. */
const BLOB_SCENARIOS: LoadScenario[] = [detail4kScenario, detail712kScenario, detail22mScenario, raw22mScenario, attachment16mScenario];
/** As between the scenarios of a run (run.ts): what one side leaves behind ends before the other starts. */
const SETTLE_MS = 2000;

export const readS3Scenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'read-s3',
  title: 'The read scenarios that read blobs, on the disk read API and then on a read API with its blobs in S3, in one run',
  summary:
    `starts s3rver in a process of its own (127.0.0.1:${BENCH_S3_PORT}, objects kept in var/bench-s3), copies alice's reference mails' blobs into it, ` +
    `starts a read API on it (127.0.0.1:${S3_READ_API_PORT}) with the disk read API's settings, then runs ${BLOB_SCENARIOS.map((scenario) => scenario.name).join(', ')} ` +
    'against the disk API and the S3 API in turn; about 4 minutes',
  run: runReadS3,
};

async function runReadS3(fixtures: BenchFixtures, options: ProcedureOptions): Promise<ProcedureOutcome> {
  const startedAt = new Date().toISOString();
  const diskApiPid = serverRootPid((await fixtures.api.health()).pid);
  const s3 = await startBenchS3();
  try {
    const copy = await copyReferenceBlobs(fixtures, diskApiPid, s3);
    const notes = [
      `S3: s3rver pid ${s3.pid} at ${s3.env.S3_ENDPOINT}, bucket ${s3.env.S3_BUCKET} in ${BENCH_S3_DIR}; ` +
        `reference blobs copied from ${copy.storageDir}: ${copy.copied} (${megabytes(copy.copiedBytes)} MB), already there ${copy.present}`,
    ];
    const api = await startS3ReadApi(diskApiPid, s3.env);
    notes.push(...api.notes);
    const pairs: BackendPair[] = [];
    try {
      const s3Fixtures = new BenchFixtures(new ApiClient(api.base, undefined, 'read API on S3'), fixtures.sql, fixtures.sendApi);
      for (const scenario of BLOB_SCENARIOS) pairs.push(await measureBothBackends(scenario, { disk: fixtures, s3: s3Fixtures }, s3, options, notes));
    } finally {
      await api.stop();
    }
    notes.push(...sizeRateNotes(pairs));
    return {
      scenario: readS3Scenario.name,
      title: readS3Scenario.title,
      startedAt,
      notes,
      table: { header: BACKEND_TABLE_HEADER, rows: backendRows(pairs) },
      data: { s3: { endpoint: s3.env.S3_ENDPOINT, bucket: s3.env.S3_BUCKET, directory: BENCH_S3_DIR }, copy, scenarios: pairs },
    };
  } finally {
    await s3.stop();
  }
}

/** The disk API, then the S3 API, under the same load; a side that fails is a note, and the other side still runs. */
async function measureBothBackends(
  scenario: LoadScenario,
  fixtures: { disk: BenchFixtures; s3: BenchFixtures },
  s3: BenchS3,
  options: ProcedureOptions,
  notes: string[],
): Promise<BackendPair> {
  // The naive server belongs to the read group's comparison; here the other backend takes its place.
  const { naiveTarget: _naive, ...alone } = scenario;
  const run: LoadScenario = { ...alone, connections: options.connections ?? scenario.connections };
  const pair: BackendPair = { scenario: scenario.name, connections: run.connections };
  const side = async (backend: 'disk' | 's3', label: string): Promise<Measurement | undefined> => {
    try {
      const outcome = await runLoadScenario(run, fixtures[backend], options.durationSeconds);
      notes.push(...outcome.notes.map((note) => `${scenario.name} ${label}: ${note}`));
      console.log(`   ${scenario.name.padEnd(14)} ${label.padEnd(4)} ${measurementLine(outcome.ours)}`);
      return outcome.ours;
    } catch (error) {
      notes.push(`${scenario.name} ${label}: FAILED: ${(error as Error).message}`);
      console.error(`   ${scenario.name} ${label}: FAILED: ${(error as Error).message}`);
      return undefined;
    }
  };
  pair.disk = await side('disk', 'disk');
  await sleep(SETTLE_MS);
  const s3CpuBefore = treeCpuSeconds(s3.pid);
  pair.s3 = await side('s3', 'S3');
  pair.s3ServerCpuSeconds = treeCpuSeconds(s3.pid) - s3CpuBefore;
  await sleep(SETTLE_MS);
  return pair;
}

/** The claim: the 22 MB mail's view reads at about the rate of the 4 KB one's, on either backend. */
function sizeRateNotes(pairs: BackendPair[]): string[] {
  const small = pairs.find((pair) => pair.scenario === detail4kScenario.name);
  const large = pairs.find((pair) => pair.scenario === detail22mScenario.name);
  if (!small || !large) return [];
  const rate = (backend: 'disk' | 's3') => {
    const [of4k, of22m] = [small[backend], large[backend]];
    return of4k && of22m
      ? `${count(of22m.requestsPerSecond)} against ${count(of4k.requestsPerSecond)} req/s (${ratio(of22m.requestsPerSecond / of4k.requestsPerSecond)})`
      : 'n/a';
  };
  return [`detail-22m ÷ detail-4k (${large.connections} against ${small.connections} connections): disk ${rate('disk')}, S3 ${rate('s3')}`];
}
