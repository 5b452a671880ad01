/** What a load sends: the paths, requested in turn, and the headers of every request. */
export interface LoadTarget {
  paths: string[];
  headers: Record<string, string>;
}

/** A load on one server: its target, how many connections and for how long. */
export interface HttpLoad extends LoadTarget {
  base: URL;
  connections: number;
  durationSeconds: number;
}

/** One load run's figures, the same whichever tool produced them. */
export interface LoadResult {
  tool: 'autocannon' | 'wrk';
  connections: number;
  durationSeconds: number;
  /** Responses received, whatever their status. */
  responses: number;
  /** Responses with a 2xx status per second: a server that fails fast does not look fast. */
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
