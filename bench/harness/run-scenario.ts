import { SERVER_NAMES, type LoadGoal, type LoadScenario } from '../scenarios/scenario';
import type { BenchFixtures } from './bench-fixtures';
import { heapLimitNote } from './heap-limit-note';
import type { LoadTarget } from './load-result';
import { measure, type Measurement } from './measure';
import { startNaiveReadServer } from './naive-server';
import { serverRootPid } from './process-tree';

export interface ScenarioOutcome {
  scenario: string;
  title: string;
  tool: LoadScenario['tool'];
  connections: number;
  startedAt: string;
  /** The server measured: "read API" or "send API". */
  server: string;
  base: string;
  notes: string[];
  ours: Measurement;
  naive?: Measurement;
  /** What `naive` measured, when not the naive way. */
  comparedWith?: string;
  /** Our server ÷ naive server: above 1 for req/s and below 1 for p99 favour ours. */
  ratios?: { requestsPerSecond: number; p99: number };
  goal?: LoadGoal & { met: boolean };
  /** The scenario's minRatioToCompared, and whether the req/s ratio reached it. */
  ratioGoal?: { min: number; met: boolean };
}

/** Runs one load scenario against its API and, if it has one, its naive variant right after. */
export async function runLoadScenario(scenario: LoadScenario, fixtures: BenchFixtures, durationSeconds?: number): Promise<ScenarioOutcome> {
  const startedAt = new Date().toISOString();
  const seconds = durationSeconds ?? scenario.defaultDurationSeconds;
  const api = fixtures.apiFor(scenario.server ?? 'read');
  const health = await api.health();
  const serverPid = serverRootPid(health.pid);
  const notes: string[] = [];
  if (scenario.expectedHeapLimitMb) notes.push(heapLimitNote(serverPid, scenario.expectedHeapLimitMb));
  if (scenario.check) notes.push(await scenario.check(fixtures));
  const session = await scenario.session?.(fixtures);
  notes.push(...(session?.notes ?? []));
  try {
    const ours = await measure(scenario, { base: api.base, pid: serverPid, mainPid: health.pid }, await scenario.target(fixtures), seconds);
    notes.push(...unansweredNote(SERVER_NAMES[scenario.server ?? 'read'], ours, scenario.connections));
    const outcome: ScenarioOutcome = {
      scenario: scenario.name,
      title: scenario.title,
      tool: scenario.tool,
      connections: scenario.connections,
      startedAt,
      server: SERVER_NAMES[scenario.server ?? 'read'],
      base: api.base.href,
      notes,
      ours,
      ...(scenario.comparedWith ? { comparedWith: scenario.comparedWith } : {}),
      ...(scenario.goal ? { goal: { ...scenario.goal, met: meets(ours, scenario.goal) } } : {}),
    };
    if (!scenario.naiveTarget) return outcome;

    // Our figures stand on their own, so a naive side that cannot be measured is a note, not a failure.
    try {
      const naive = await measureNaive(scenario, fixtures, await scenario.naiveTarget(fixtures), seconds, notes);
      const ratios = { requestsPerSecond: ours.requestsPerSecond / naive.requestsPerSecond, p99: ours.latencyMs.p99 / naive.latencyMs.p99 };
      const min = scenario.minRatioToCompared;
      return { ...outcome, naive, ratios, ...(min === undefined ? {} : { ratioGoal: { min, met: ratios.requestsPerSecond >= min } }) };
    } catch (error) {
      notes.push(`the naive variant was not measured: ${(error as Error).message}`);
      return outcome;
    }
  } finally {
    // Its notes land in the outcome's list, which is the same array.
    if (session) notes.push(...(await session.finish().catch((error: Error) => [`WARNING: clean-up failed: ${error.message}`])));
  }
}

function meets(measurement: Measurement, goal: LoadGoal): boolean {
  return (
    measurement.requestsPerSecond >= goal.minRequestsPerSecond && measurement.latencyMs.p99 < goal.maxP99Ms && measurement.responses >= measurement.connections
  );
}

async function measureNaive(scenario: LoadScenario, fixtures: BenchFixtures, target: LoadTarget, seconds: number, notes: string[]): Promise<Measurement> {
  const naiveServer = await (scenario.startNaive ? scenario.startNaive(fixtures) : startNaiveReadServer());
  try {
    const naive = await measure(scenario, naiveServer, target, seconds);
    notes.push(...unansweredNote('naive', naive, scenario.connections));
    const exit = naiveServer.unexpectedExit();
    if (exit) notes.push(`the naive server ${exit}`);
    notes.push(...((await naiveServer.notes?.()) ?? []));
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
