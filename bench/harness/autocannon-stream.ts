import autocannon from 'autocannon';
import { percentile, type LoadRequest, type LoadResult } from './load-result';

const RESPONSE_TIMEOUT_SECONDS = 30;

export interface StreamLoad {
  base: URL;
  connections: number;
  durationSeconds: number;
  headers: Record<string, string>;
  /** Called before every request: each request may differ (a new Message-ID each time), which a list sent in turn cannot do. */
  next(): LoadRequest;
}

/**
 * runAutocannon (autocannon-load.ts) for requests made one by one as autocannon asks for
 * them, with the same latencies (and the count of 2xx answers): every response's, and each connection's unanswered
 * request at the end with its wait so far (a lower bound).
 */
export async function runAutocannonStream(load: StreamLoad): Promise<LoadResult & { accepted: number }> {
  const instance = autocannon({
    url: load.base.origin,
    connections: load.connections,
    duration: load.durationSeconds,
    timeout: RESPONSE_TIMEOUT_SECONDS,
    headers: load.headers,
    requests: [{ setupRequest: (request) => ({ ...request, ...load.next() }) }],
  });
  const startedAt = performance.now();
  const latencies: number[] = [];
  const lastAnswerAt = new Map<unknown, number>();
  instance.on('response', (client, _status, _bytes, responseTimeMs) => {
    latencies.push(responseTimeMs);
    lastAnswerAt.set(client, performance.now());
  });
  const result = await instance;
  const endedAt = performance.now();
  const waiting = [...lastAnswerAt.values()].map((answeredAt) => endedAt - answeredAt);
  const neverAnswered = Array.from({ length: Math.max(0, load.connections - lastAnswerAt.size) }, () => endedAt - startedAt);
  const sorted = Float64Array.from([...latencies, ...waiting, ...neverAnswered]).sort();
  return {
    tool: 'autocannon',
    connections: load.connections,
    durationSeconds: result.duration,
    responses: result.requests.total,
    requestsPerSecond: result['2xx'] / result.duration,
    accepted: result['2xx'],
    latencyMs: {
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      max: sorted.length > 0 ? sorted[sorted.length - 1] : 0,
    },
    bytesPerSecond: result.throughput.total / result.duration,
    non2xx: result.non2xx,
    socketErrors: result.errors,
  };
}
