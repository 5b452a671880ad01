import type { Measurement } from '../harness/measure';
import type { ScenarioOutcome } from '../harness/run-scenario';
import { count, latency, megabytes, ratio } from './format';

/** The lines printed as soon as a scenario is done. */
export function outcomeLines(outcome: ScenarioOutcome, resultFile: string): string[] {
  const lines = [...outcome.notes.map((note) => `  ${note}`), `  read API  ${measurementLine(outcome.ours)}`];
  if (outcome.naive) lines.push(`  naive     ${measurementLine(outcome.naive)}`);
  if (outcome.ratios) {
    lines.push(`  read API / naive: req/s ${ratio(outcome.ratios.requestsPerSecond)}, p99 ${ratio(outcome.ratios.p99)}`);
  }
  lines.push(`  written to ${resultFile}`);
  return lines;
}

function measurementLine(measurement: Measurement): string {
  const { latencyMs } = measurement;
  return [
    `${count(measurement.requestsPerSecond)} req/s`,
    `p50 ${latency(measurement, latencyMs.p50)} ms`,
    `p95 ${latency(measurement, latencyMs.p95)} ms`,
    `p99 ${latency(measurement, latencyMs.p99)} ms`,
    `errors ${count(measurement.non2xx + measurement.socketErrors)} (non-2xx ${count(measurement.non2xx)}, socket ${count(measurement.socketErrors)})`,
    `peak RSS ${megabytes(measurement.peakRssBytes)} MB`,
    `${megabytes(measurement.bytesPerSecond)} MB/s`,
  ].join('  ');
}
