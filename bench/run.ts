import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { databaseConfig, loadConfig } from '@letterbox/config';
import { parseBenchArgs, USAGE, UsageError } from './cli-args';
import { ApiClient, ApiNotRunningError } from './harness/api-client';
import { BenchFixtures } from './harness/bench-fixtures';
import type { ProcedureOutcome } from './harness/procedure-outcome';
import { runLoadScenario, type ScenarioOutcome } from './harness/run-scenario';
import { megabytes } from './report/format';
import { outcomeLines, procedureLines } from './report/print-outcome';
import { writeResultFile } from './report/results-file';
import { resultsTables } from './report/results-table';
import type { Scenario } from './scenarios/scenario';

/** Lets work a scenario leaves behind (a stopped naive server's queries, sockets closing) end before the next one. */
const SETTLE_MS = 2000;

async function main(): Promise<number> {
  const args = parseBenchArgs(process.argv.slice(2));
  const api = new ApiClient(args.base);
  const health = await api.health();
  console.log(`read API at ${args.base.origin}: pid ${health.pid}, RSS ${megabytes(health.rssBytes)} MB`);
  const sendApi = new ApiClient(
    args.sendBase,
    `SEND_API_PORT=${args.sendBase.port || 80} node dist/apps/send-api/src/main.js   (after node -r @swc-node/register scripts/build.ts)`,
    'send API',
  );

  const { DATABASE_URL } = loadConfig(databaseConfig);
  // Only fixtures that the API does not show (the bench receipts' keys, the list check, send times) are read from SQL.
  const sql = new Pool({ connectionString: DATABASE_URL, max: 2, application_name: 'letterbox-bench' });
  const fixtures = new BenchFixtures(api, sql, sendApi);
  const outcomes: ScenarioOutcome[] = [];
  const procedures: ProcedureOutcome[] = [];
  const failures: string[] = [];
  try {
    for (const [index, scenario] of args.scenarios.entries()) {
      if (index > 0) await sleep(SETTLE_MS);
      await naiveStatementsEnded(sql);
      const run = scenario.kind === 'load' && args.connections ? { ...scenario, connections: args.connections } : scenario;
      console.log(`\n== ${run.name}: ${run.title}\n   ${header(run, args.durationSeconds)}`);
      try {
        if (run.kind === 'load') {
          const outcome = await runLoadScenario(run, fixtures, args.durationSeconds);
          console.log(outcomeLines(outcome, await writeResultFile(outcome)).join('\n'));
          outcomes.push(outcome);
        } else {
          const outcome = await run.run(fixtures, {
            workerEnv: args.workerEnv,
            workerBuild: args.workerBuild,
            durationSeconds: args.durationSeconds,
            connections: args.connections,
          });
          console.log(procedureLines(outcome, await writeResultFile(outcome)).join('\n'));
          procedures.push(outcome);
        }
      } catch (error) {
        // Without the read API nothing else can run; any other failure belongs to this scenario alone.
        if (error instanceof ApiNotRunningError && error.api === api.name) throw error;
        console.error(`  FAILED: ${(error as Error).message}`);
        failures.push(scenario.name);
      }
    }
  } finally {
    await sql.end();
  }
  if (outcomes.length + procedures.length > 0) console.log(`\n${resultsTables(outcomes, procedures)}`);
  if (failures.length > 0) console.error(`\nfailed: ${failures.join(', ')}`);
  return failures.length > 0 ? 1 : 0;
}

/** Longest a scenario waits for an earlier one's naive statements (a search's scan of a million bodies) to end. */
const NAIVE_LEFTOVERS_MS = 120_000;

/**
 * A naive server's statements outlive it: a stopped naive search's scans of a million bodies ran
 * 15–20 s into the next scenario (on both cores), which then measured them as much as itself.
 */
async function naiveStatementsEnded(sql: Pool): Promise<void> {
  const started = Date.now();
  const running = async () =>
    Number(
      (
        await sql.query<{ running: string }>(
          "SELECT count(*) AS running FROM pg_stat_activity WHERE application_name LIKE 'letterbox-bench-naive%' AND state = 'active'",
        )
      ).rows[0].running,
    );
  let left = await running();
  if (left === 0) return;
  console.log(`   waiting for ${left} statements of a naive server to end`);
  while (left > 0 && Date.now() - started < NAIVE_LEFTOVERS_MS) {
    await sleep(500);
    left = await running();
  }
  console.log(
    left === 0 ? `   they ended in ${((Date.now() - started) / 1000).toFixed(1)} s` : `   ${left} still running after ${NAIVE_LEFTOVERS_MS / 1000} s`,
  );
}

function header(scenario: Scenario, durationSeconds: number | undefined): string {
  if (scenario.kind === 'procedure') return scenario.summary;
  const server = scenario.server === 'send' ? 'send API, ' : '';
  const offered = scenario.offeredRatePerSecond ? ` at ${scenario.offeredRatePerSecond} requests/s` : '';
  return `${server}${scenario.connections} connections, ${durationSeconds ?? scenario.defaultDurationSeconds} s, ${scenario.tool}${offered}`;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // process.exit runs the exit hooks, which kill the servers and workers the harness started.
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    process.exit(130);
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
    else if (error instanceof ApiNotRunningError) console.error(error.message);
    else console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
