import type { Measurement } from '../harness/measure';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import type { ScenarioOutcome } from '../harness/run-scenario';
import { count, latency, megabytes, ratio } from './format';

/** The compact tables printed at the end of a run: every load scenario, the naive comparisons, then each procedure's table. */
export function resultsTables(outcomes: ScenarioOutcome[], procedures: ProcedureOutcome[] = []): string {
  const sections: string[] = [];
  if (outcomes.length > 0) sections.push(loadTables(outcomes));
  for (const procedure of procedures) sections.push(`${procedure.scenario}: ${procedure.title}\n${table(procedure.table.header, procedure.table.rows)}`);
  return sections.join('\n\n');
}

function loadTables(outcomes: ScenarioOutcome[]): string {
  const main = table(
    ['scenario', 'server', 'tool', 'conns', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'peak RSS MB', 'MB/s', 'CPU cores'],
    outcomes.map(({ scenario, server, tool, connections, ours }) => [
      scenario,
      server,
      tool,
      count(connections),
      count(ours.requestsPerSecond),
      latency(ours, ours.latencyMs.p50),
      latency(ours, ours.latencyMs.p95),
      latency(ours, ours.latencyMs.p99),
      count(ours.non2xx + ours.socketErrors),
      megabytes(ours.peakRssBytes),
      megabytes(ours.bytesPerSecond),
      ours.cpuCores === undefined ? '' : ours.cpuCores.toFixed(2),
    ]),
  );
  const compared = outcomes.filter((outcome): outcome is ScenarioOutcome & { naive: Measurement } => outcome.naive !== undefined);
  if (compared.length === 0) return main;
  // Where the naive p99 is a lower bound (≥), the p99 ratio is an upper bound.
  const comparison = table(
    ['scenario', 'req/s ours', 'req/s naive', 'ratio', 'p99 ours', 'p99 naive', 'ratio', 'RSS ours MB', 'RSS naive MB', 'errors naive'],
    compared.map(({ scenario, ours, naive, ratios, comparedWith }) => [
      comparedWith ? `${scenario} (vs ${comparedWith})` : scenario,
      count(ours.requestsPerSecond),
      count(naive.requestsPerSecond),
      ratio(ratios?.requestsPerSecond),
      latency(ours, ours.latencyMs.p99),
      latency(naive, naive.latencyMs.p99),
      ratio(ratios?.p99),
      megabytes(ours.peakRssBytes),
      megabytes(naive.peakRssBytes),
      count(naive.non2xx + naive.socketErrors),
    ]),
  );
  return `${main}\n\nours vs naive (ratio = ours / naive)\n${comparison}`;
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
