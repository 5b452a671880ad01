import type { BenchFixtures } from '../harness/bench-fixtures';
import type { LoadTarget } from '../harness/load-result';
import type { NaiveServer } from '../harness/naive-server';
import type { ProcedureOutcome } from '../harness/procedure-outcome';

/** The APIs a load scenario can measure; both answer /health with their pid and RSS. */
export type ServerKey = 'read' | 'send';

export const SERVER_NAMES: Record<ServerKey, string> = { read: 'read API', send: 'send API' };

/** What a load scenario is expected to reach, printed as met or missed next to its figures. */
export interface LoadGoal {
  minRequestsPerSecond: number;
  maxP99Ms: number;
  /** The original design's figures, for the record. */
  original: string;
}

/** Work around one scenario's measured loads: notes before, and clean-up with its notes after. */
export interface LoadSession {
  notes: string[];
  finish(): Promise<string[]>;
}

/** A scenario measured by loading one server with autocannon or wrk for a set time. */
export interface LoadScenario {
  kind: 'load';
  name: string;
  /** What is measured, as printed above the figures. */
  title: string;
  /**
   * autocannon, or wrk for multi-megabyte bodies, which autocannon reads too slowly to
   * measure; both as fast as the connections allow. open-loop: requests offered at
   * `offeredRatePerSecond` whatever the answers, for the latency at a given rate.
   */
  tool: 'autocannon' | 'wrk' | 'open-loop';
  offeredRatePerSecond?: number;
  /** The connection count of the original load test of this route. */
  connections: number;
  defaultDurationSeconds: number;
  /** The server loaded; the read API unless said. */
  server?: ServerKey;
  target(fixtures: BenchFixtures): Promise<LoadTarget>;
  /** A check of the data or the answer made once before the load; its verdict is printed. */
  check?(fixtures: BenchFixtures): Promise<string>;
  /** The same request to the naive server, measured right after the read API for a ratio. */
  naiveTarget?(fixtures: BenchFixtures): Promise<LoadTarget>;
  /** What the second measurement is, when it is not the naive way (e.g. "flat list"); printed in its place. */
  comparedWith?: string;
  /** The least req/s of ours ÷ the compared server's that meets the target (e.g. 0.5 of a bare server's floor). */
  minRatioToCompared?: number;
  /** Starts the naive server (and what it needs); bench/naive/naive-read-server.ts unless given. */
  startNaive?(fixtures: BenchFixtures): Promise<NaiveServer>;
  /** The heap limit (MB) the read API should run with for this scenario's memory figure to mean anything. */
  expectedHeapLimitMb?: number;
  goal?: LoadGoal;
  /** Started before the first load and finished after the last, whatever happened in between. */
  session?(fixtures: BenchFixtures): Promise<LoadSession>;
}

export interface ProcedureOptions {
  /** Added to every delivery worker's settings (--worker-env). */
  workerEnv: Record<string, string>;
  /** --worker-build: the dist/ whose delivery worker runs, instead of this checkout's. */
  workerBuild?: string;
  /** --duration, for a procedure that runs load scenarios. */
  durationSeconds?: number;
  /** --connections, for a procedure that runs load scenarios. */
  connections?: number;
}

/**
 * A scenario that is not a timed load: it runs a procedure (e.g. queue sends and wait
 * for their delivery) and reports its own figures.
 */
export interface ProcedureScenario {
  kind: 'procedure';
  name: string;
  title: string;
  /** One line on what it does and how long it takes, printed under the title. */
  summary: string;
  run(fixtures: BenchFixtures, options: ProcedureOptions): Promise<ProcedureOutcome>;
}

export type Scenario = LoadScenario | ProcedureScenario;

/** The default length of an autocannon scenario: the read scenarios then take about five minutes. */
export const AUTOCANNON_SECONDS = 15;
