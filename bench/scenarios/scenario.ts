import type { BenchFixtures } from '../harness/bench-fixtures';
import type { LoadTarget } from '../harness/load-result';

export interface Scenario {
  name: string;
  /** What is measured, as printed above the figures. */
  title: string;
  /** autocannon, or wrk for multi-megabyte bodies, which autocannon reads too slowly to measure. */
  tool: 'autocannon' | 'wrk';
  /** The connection count of the original load test of this route. */
  connections: number;
  defaultDurationSeconds: number;
  target(fixtures: BenchFixtures): Promise<LoadTarget>;
  /** A check of the data or the answer made once before the load; its verdict is printed. */
  check?(fixtures: BenchFixtures): Promise<string>;
  /** The same request to the naive server, measured right after the read API for a ratio. */
  naiveTarget?(fixtures: BenchFixtures): Promise<LoadTarget>;
  /** The heap limit (MB) the read API should run with for this scenario's memory figure to mean anything. */
  expectedHeapLimitMb?: number;
}

/** The default length of an autocannon scenario: `all` then takes about five minutes. */
export const AUTOCANNON_SECONDS = 15;
