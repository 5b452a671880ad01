/** One request of a load that is not a plain GET: sent as it is, its headers over the target's. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * What a load sends: the paths, requested in turn, and the headers of every request; or,
 * for autocannon, `requests` in turn instead of the paths (other methods, bodies, headers
 * that differ per request, such as one sender's token after another's).
 */
export interface LoadTarget {
  paths: string[];
  headers: Record<string, string>;
  requests?: LoadRequest[];
}

/** The requests a target sends in turn: its own, or a GET of each path. */
export function requestsOf(target: LoadTarget): LoadRequest[] {
  return target.requests ?? target.paths.map((path) => ({ method: 'GET', path }));
}

/** A load on one server: its target, how many connections and for how long. */
export interface HttpLoad extends LoadTarget {
  base: URL;
  connections: number;
  durationSeconds: number;
}

/** One load run's figures, the same whichever tool produced them. */
export interface LoadResult {
  tool: 'autocannon' | 'wrk' | 'open-loop';
  connections: number;
  durationSeconds: number;
  /** Responses received, whatever their status. */
  responses: number;
  /** Responses with a 2xx status (or 304 to a revalidation) per second: a server that fails fast does not look fast. */
  requestsPerSecond: number;
  /** Over answered requests, and for autocannon also the unanswered ones with their wait so far. */
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** Response bytes per second, headers included. */
  bytesPerSecond: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  socketErrors: number;
}

/** The value below which `fraction` of the sorted values lie (nearest rank). */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

/** The median, 95th and 99th percentiles and the maximum of some values, in any order. */
export function spreadOf(values: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.length > 0 ? sorted[sorted.length - 1] : 0,
  };
}
