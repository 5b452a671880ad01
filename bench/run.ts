import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { databaseConfig, loadConfig } from '@letterbox/config';
import { parseBenchArgs, USAGE, UsageError } from './cli-args';
import { ApiClient, ApiNotRunningError } from './harness/api-client';
import { BenchFixtures } from './harness/bench-fixtures';
import { runScenario, type ScenarioOutcome } from './harness/run-scenario';
import { megabytes } from './report/format';
import { outcomeLines } from './report/print-outcome';
import { writeResultFile } from './report/results-file';
import { resultsTables } from './report/results-table';

/** Lets work a scenario leaves behind (a stopped naive server's queries, sockets closing) end before the next one. */
const SETTLE_MS = 2000;

async function main(): Promise<number> {
  const args = parseBenchArgs(process.argv.slice(2));
  const api = new ApiClient(args.base);
  const health = await api.health();
  console.log(`read API at ${args.base.origin}: pid ${health.pid}, RSS ${megabytes(health.rssBytes)} MB`);

  const { DATABASE_URL } = loadConfig(databaseConfig);
  // Only fixtures that the API does not show (the bench receipts' keys, the list check) are read from SQL.
  const sql = new Pool({ connectionString: DATABASE_URL, max: 2, application_name: 'letterbox-bench' });
  const fixtures = new BenchFixtures(api, sql);
  const outcomes: ScenarioOutcome[] = [];
  const failures: string[] = [];
  try {
    for (const [index, scenario] of args.scenarios.entries()) {
      if (index > 0) await sleep(SETTLE_MS);
      const seconds = args.durationSeconds ?? scenario.defaultDurationSeconds;
      console.log(`\n== ${scenario.name}: ${scenario.title}\n   ${scenario.connections} connections, ${seconds} s, ${scenario.tool}`);
      try {
        const outcome = await runScenario(scenario, fixtures, args.durationSeconds);
        console.log(outcomeLines(outcome, await writeResultFile(outcome)).join('\n'));
        outcomes.push(outcome);
      } catch (error) {
        // Without the API nothing else can run; any other failure belongs to this scenario alone.
        if (error instanceof ApiNotRunningError) throw error;
        console.error(`  FAILED: ${(error as Error).message}`);
        failures.push(scenario.name);
      }
    }
  } finally {
    await sql.end();
  }
  if (outcomes.length > 0) console.log(`\n${resultsTables(outcomes)}`);
  if (failures.length > 0) console.error(`\nfailed: ${failures.join(', ')}`);
  return failures.length > 0 ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // process.exit runs the exit hooks, which kill a naive server that is still running.
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
