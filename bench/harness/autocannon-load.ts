import autocannon from 'autocannon';
import { percentile, type LoadResult } from './load-result';

export interface HttpLoad {
  base: URL;
  connections: number;
  durationSeconds: number;
  /** Requested in turn, each request taking the next; most loads have one. */
  paths: string[];
  headers: Record<string, string>;
}

/** Long enough that slow naive responses are measured rather than cut off as errors. */
const RESPONSE_TIMEOUT_SECONDS = 30;

/**
 * Runs autocannon in this process. Latencies are kept from every response rather than
 * read from autocannon's histogram, which has no 95th percentile.
 */
export async function runAutocannon(load: HttpLoad): Promise<LoadResult> {
  let next = 0;
  const nextPath = () => load.paths[next++ % load.paths.length];
  const instance = autocannon({
    url: load.base.origin,
    connections: load.connections,
    duration: load.durationSeconds,
    timeout: RESPONSE_TIMEOUT_SECONDS,
    headers: load.headers,
    requests: [load.paths.length === 1 ? { path: load.paths[0] } : { setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  });
  const latencies: number[] = [];
  instance.on('response', (_client, _status, _bytes, responseTimeMs) => latencies.push(responseTimeMs));
  const result = await instance;
  const sorted = Float64Array.from(latencies).sort();
  return {
    tool: 'autocannon',
    connections: load.connections,
    durationSeconds: result.duration,
    requestsPerSecond: result['2xx'] / result.duration,
    latencyMs: {
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      max: sorted.length > 0 ? sorted[sorted.length - 1] : 0,
    },
    bytesPerSecond: result.totalBytes / result.duration,
    non2xx: result.non2xx,
    socketErrors: result.errors,
  };
}
