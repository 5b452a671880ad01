import type { Measurement } from '../harness/measure';
import { count, latency, megabytes, ratio } from './format';

/** One read scenario measured on both storage backends; a side that failed has no figures. */
export interface BackendPair {
  scenario: string;
  connections: number;
  disk?: Measurement;
  s3?: Measurement;
  /** CPU seconds the S3 server used over the S3 side, its warm-up included. */
  s3ServerCpuSeconds?: number;
}

export const BACKEND_TABLE_HEADER = [
  'scenario',
  'backend',
  'conns',
  'req/s',
  'p50 ms',
  'p99 ms',
  'API peak RSS MB',
  'MB/s',
  'API CPU cores',
  'machine busy',
  's3rver CPU s',
  'S3/disk req/s',
  'S3/disk p99',
  'S3/disk RSS',
];

/** Two rows per scenario, disk then S3; the S3 row carries the ratios. */
export function backendRows(pairs: BackendPair[]): string[][] {
  return pairs.flatMap((pair) => {
    const { disk, s3 } = pair;
    const ratios =
      disk && s3
        ? [ratio(s3.requestsPerSecond / disk.requestsPerSecond), ratio(s3.latencyMs.p99 / disk.latencyMs.p99), ratio(s3.peakRssBytes / disk.peakRssBytes)]
        : ['', '', ''];
    return [
      [pair.scenario, 'disk', count(pair.connections), ...figures(disk), '', '', '', ''],
      ['', 'S3', count(pair.connections), ...figures(s3), pair.s3ServerCpuSeconds === undefined ? '' : pair.s3ServerCpuSeconds.toFixed(1), ...ratios],
    ];
  });
}

function figures(measurement: Measurement | undefined): string[] {
  if (!measurement) return ['failed', '', '', '', '', '', ''];
  return [
    count(measurement.requestsPerSecond),
    latency(measurement, measurement.latencyMs.p50),
    latency(measurement, measurement.latencyMs.p99),
    megabytes(measurement.peakRssBytes),
    megabytes(measurement.bytesPerSecond),
    measurement.cpuCores?.toFixed(2) ?? '',
    measurement.machineBusyCores?.toFixed(2) ?? '',
  ];
}
