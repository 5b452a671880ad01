import type { Scenario } from '../scenarios/scenario';
import type { BenchFixtures } from './bench-fixtures';
import { heapLimitNote } from './heap-limit-note';
import type { LoadTarget } from './load-result';
import { measure, type Measurement } from './measure';
import { startNaiveServer } from './naive-server';
import { serverRootPid } from './process-tree';

export interface ScenarioOutcome {
  scenario: string;
  title: string;
  tool: Scenario['tool'];
  connections: number;
  startedAt: string;
  base: string;
  notes: string[];
  ours: Measurement;
  naive?: Measurement;
  /** Read API ÷ naive server: above 1 for req/s and below 1 for p99 favour the read API. */
  ratios?: { requestsPerSecond: number; p99: number };
}

/** Runs one scenario against the read API and, if it has one, its naive variant right after. */
export async function runScenario(scenario: Scenario, fixtures: BenchFixtures, durationSeconds?: number): Promise<ScenarioOutcome> {
  const startedAt = new Date().toISOString();
  const seconds = durationSeconds ?? scenario.defaultDurationSeconds;
  const health = await fixtures.api.health();
  const serverPid = serverRootPid(health.pid);
  const notes: string[] = [];
  if (scenario.expectedHeapLimitMb) notes.push(heapLimitNote(serverPid, scenario.expectedHeapLimitMb));
  if (scenario.check) notes.push(await scenario.check(fixtures));
  const ours = await measure(scenario, { base: fixtures.api.base, pid: serverPid }, await scenario.target(fixtures), seconds);
  notes.push(...unansweredNote('read API', ours, scenario.connections));
  const outcome: ScenarioOutcome = {
    scenario: scenario.name,
    title: scenario.title,
    tool: scenario.tool,
    connections: scenario.connections,
    startedAt,
    base: fixtures.api.base.href,
    notes,
    ours,
  };
  if (!scenario.naiveTarget) return outcome;

  // The read API's figures stand on their own, so a naive side that cannot be measured is a note, not a failure.
  try {
    const naive = await measureNaive(scenario, await scenario.naiveTarget(fixtures), seconds, notes);
    return {
      ...outcome,
      naive,
      ratios: { requestsPerSecond: ours.requestsPerSecond / naive.requestsPerSecond, p99: ours.latencyMs.p99 / naive.latencyMs.p99 },
    };
  } catch (error) {
    notes.push(`the naive variant was not measured: ${(error as Error).message}`);
    return outcome;
  }
}

async function measureNaive(scenario: Scenario, target: LoadTarget, seconds: number, notes: string[]): Promise<Measurement> {
  const naiveServer = await startNaiveServer();
  try {
    const naive = await measure(scenario, naiveServer, target, seconds);
    notes.push(...unansweredNote('naive', naive, scenario.connections));
    const exit = naiveServer.unexpectedExit();
    if (exit) notes.push(`the naive server ${exit}`);
    return naive;
  } finally {
    await naiveServer.stop();
  }
}

/**
 * When a server answers fewer requests than it has connections, most requests were
 * still waiting when the run ended: its percentiles are mostly those waits so far,
 * lower bounds, which is said next to them.
 */
function unansweredNote(side: string, measurement: Measurement, connections: number): string[] {
  if (measurement.responses >= connections) return [];
  return [
    `${side}: only ${measurement.responses} responses to ${connections} connections in ${Math.round(measurement.durationSeconds)} s; ` +
      'most were still waiting at the end, so its latencies are lower bounds',
  ];
}
