import autocannon from 'autocannon';
import { requestsOf, spreadOf, type HttpLoad, type LoadRequest, type LoadResult } from './load-result';

/** Long enough that slow naive responses are measured rather than cut off as errors. */
const RESPONSE_TIMEOUT_SECONDS = 30;

/**
 * Runs autocannon in this process. Latencies are kept from every response rather than
 * read from autocannon's histogram, which has no 95th percentile. Each connection's
 * request still unanswered at the end counts with the time it had waited by then, a
 * lower bound: without it, a server too slow to answer within the run would show
 * no latency at all. With one request in flight per connection, that request was sent
 * when the connection's previous answer came, or at the start.
 */
export async function runAutocannon(load: HttpLoad): Promise<LoadResult & { accepted: number }> {
  const requests = requestsOf(load).map((request) => ({ ...request, headers: { ...load.headers, ...request.headers } }));
  let next = 0;
  return runLoad(load, requests.length === 1 ? requests[0] : { setupRequest: (request) => ({ ...request, ...requests[next++ % requests.length] }) });
}

export interface GeneratedLoad {
  base: URL;
  connections: number;
  durationSeconds: number;
  headers: Record<string, string>;
  /** Called before every request: each request may differ (a new Message-ID each time), which a list sent in turn cannot do. */
  next(): LoadRequest;
}

/** runAutocannon for requests made one by one as autocannon asks for them. */
export function runAutocannonGenerated(load: GeneratedLoad): Promise<LoadResult & { accepted: number }> {
  return runLoad(load, { setupRequest: (request) => ({ ...request, ...load.next() }) });
}

async function runLoad(
  load: Pick<HttpLoad, 'base' | 'connections' | 'durationSeconds'> & { headers?: Record<string, string> },
  request: autocannon.Request,
): Promise<LoadResult & { accepted: number }> {
  const instance = autocannon({
    url: load.base.origin,
    connections: load.connections,
    duration: load.durationSeconds,
    timeout: RESPONSE_TIMEOUT_SECONDS,
    headers: load.headers,
    requests: [request],
  });
  const startedAt = performance.now();
  const latencies: number[] = [];
  const lastAnswerAt = new Map<unknown, number>();
  // A 304 answers a revalidation (If-None-Match) as it should: counted with the 2xx, not among the errors.
  let notModified = 0;
  instance.on('response', (client, status, _bytes, responseTimeMs) => {
    latencies.push(responseTimeMs);
    lastAnswerAt.set(client, performance.now());
    if (status === 304) notModified++;
  });
  const result = await instance;
  const endedAt = performance.now();
  const waiting = [...lastAnswerAt.values()].map((answeredAt) => endedAt - answeredAt);
  const neverAnswered = Array.from({ length: Math.max(0, load.connections - lastAnswerAt.size) }, () => endedAt - startedAt);
  return {
    tool: 'autocannon',
    connections: load.connections,
    durationSeconds: result.duration,
    responses: result.requests.total,
    requestsPerSecond: (result['2xx'] + notModified) / result.duration,
    accepted: result['2xx'] + notModified,
    latencyMs: spreadOf([...latencies, ...waiting, ...neverAnswered]),
    bytesPerSecond: result.throughput.total / result.duration,
    non2xx: result.non2xx - notModified,
    socketErrors: result.errors,
  };
}
