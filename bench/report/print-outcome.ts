import { cpus } from 'node:os';
import type { Measurement } from '../harness/measure';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import type { ScenarioOutcome } from '../harness/run-scenario';
import { count, latency, megabytes, milliseconds, ratio } from './format';
import { table } from './results-table';

/** The lines printed as soon as a load scenario is done. */
export function outcomeLines(outcome: ScenarioOutcome, resultFile: string): string[] {
  const label = outcome.server.padEnd(9);
  const lines = [...outcome.notes.map((note) => `  ${note}`), `  ${label} ${measurementLine(outcome.ours)}`];
  const compared = outcome.comparedWith ?? 'naive';
  if (outcome.naive) lines.push(`  ${compared.padEnd(9)} ${measurementLine(outcome.naive)}`);
  if (outcome.ratios) {
    lines.push(`  ${outcome.server} / ${compared}: req/s ${ratio(outcome.ratios.requestsPerSecond)}, p99 ${ratio(outcome.ratios.p99)}`);
  }
  if (outcome.ratioGoal && outcome.ratios) {
    lines.push(
      `  target ≥ ${ratio(outcome.ratioGoal.min)} of ${compared}'s req/s: ${outcome.ratioGoal.met ? 'met' : 'MISSED'} (${ratio(outcome.ratios.requestsPerSecond)})`,
    );
  }
  if (outcome.goal) {
    const { goal } = outcome;
    lines.push(
      `  target ≥ ${count(goal.minRequestsPerSecond)} req/s with p99 < ${milliseconds(goal.maxP99Ms)} ms: ${goal.met ? 'met' : 'MISSED'} ` +
        `(${count(outcome.ours.requestsPerSecond)} req/s, p99 ${milliseconds(outcome.ours.latencyMs.p99)} ms; original: ${goal.original})`,
    );
  }
  lines.push(`  written to ${resultFile}`);
  return lines;
}

/** The lines printed as soon as a procedure scenario is done. */
export function procedureLines(outcome: ProcedureOutcome, resultFile: string): string[] {
  return [
    ...outcome.notes.map((note) => `  ${note}`),
    ...table(outcome.table.header, outcome.table.rows)
      .split('\n')
      .map((line) => `  ${line}`),
    `  written to ${resultFile}`,
  ];
}

export function measurementLine(measurement: Measurement): string {
  const { latencyMs } = measurement;
  return [
    `${count(measurement.requestsPerSecond)} req/s`,
    `p50 ${latency(measurement, latencyMs.p50)} ms`,
    `p95 ${latency(measurement, latencyMs.p95)} ms`,
    `p99 ${latency(measurement, latencyMs.p99)} ms`,
    `errors ${count(measurement.non2xx + measurement.socketErrors)} (non-2xx ${count(measurement.non2xx)}, socket ${count(measurement.socketErrors)})`,
    `peak RSS ${megabytes(measurement.peakRssBytes)} MB`,
    `${megabytes(measurement.bytesPerSecond)} MB/s`,
    ...(measurement.cpuCores === undefined ? [] : [`CPU ${measurement.cpuCores.toFixed(2)} cores`]),
    ...(measurement.mainThreadCpuCores === undefined
      ? []
      : [`main thread ${measurement.mainThreadCpuCores.toFixed(2)} (+${(measurement.mainThreadWaitingShare ?? 0).toFixed(2)} waiting for a core)`]),
    ...(measurement.machineBusyCores === undefined ? [] : [`machine busy ${measurement.machineBusyCores.toFixed(2)} of ${cpus().length} cores`]),
  ].join('  ');
}
