import autocannon from 'autocannon';
import { spreadOf, type LoadRequest } from './load-result';

/** A fixed number of requests, each made as autocannon asks for it (a new user each time), over a fixed number of connections. */
export interface CountedLoad {
  base: URL;
  connections: number;
  amount: number;
  headers: Record<string, string>;
  next(): LoadRequest;
}

export interface CountedResult {
  /** From the first request to the last answer. */
  seconds: number;
  responses: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  socketErrors: number;
}

/** No run lasts longer: `amount` ends it first. */
const MAX_SECONDS = 3600;
/** Requests queued behind a serialised step (a password hash each) wait long, and are measured rather than cut off. */
const RESPONSE_TIMEOUT_SECONDS = 300;

/** autocannon until `amount` requests are answered: how long they took, not how many a set time allows. */
export async function runCountedLoad(load: CountedLoad): Promise<CountedResult> {
  const instance = autocannon({
    url: load.base.origin,
    connections: load.connections,
    duration: MAX_SECONDS,
    amount: load.amount,
    timeout: RESPONSE_TIMEOUT_SECONDS,
    headers: load.headers,
    requests: [{ setupRequest: (request) => ({ ...request, ...load.next() }) }],
  });
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    latencies.push(responseTimeMs);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    lastAnswerAt = performance.now();
  });
  const result = await instance;
  return {
    seconds: (lastAnswerAt - startedAt) / 1000,
    responses: latencies.length,
    statuses,
    latencyMs: spreadOf(latencies),
    socketErrors: result.errors,
  };
}
