// Number formats shared by the per-scenario lines and the final tables.
import type { Measurement } from '../harness/measure';

export const count = (value: number) => Math.round(value).toLocaleString('en');

export const milliseconds = (value: number) => (value < 10 ? value.toFixed(1) : count(value));

export const megabytes = (bytes: number) => count(bytes / (1024 * 1024));

export function ratio(value: number | undefined): string {
  if (value === Infinity) return '∞';
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `×${value < 10 ? value.toFixed(2) : count(value)}`;
}

/** A latency, marked as a lower bound when the server answered fewer requests than it had connections. */
export function latency(measurement: Measurement, percentileMs: number): string {
  return `${measurement.responses < measurement.connections ? '≥' : ''}${milliseconds(percentileMs)}`;
}
