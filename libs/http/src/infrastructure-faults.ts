/** A fault of what the app stands on: the client may retry, after `retryAfterSeconds`. */
export interface InfrastructureFault {
  status: 503 | 507;
  /** What failed, in words that name no host, user or database. */
  detail: string;
  retryAfterSeconds: number;
  /** Faults of one kind are logged once a while, not once per request. */
  kind: 'database' | 'redis' | 'storage-full' | 'network';
}

/** PostgreSQL's classes and codes of a server that is going away, starting, or out of connections. */
const POSTGRES_UNAVAILABLE = /^(08|53|57P0[1-3])/;
/** Prisma's: database unreachable, timed out, closed the connection, pool exhausted, too many connections. */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** ioredis and BullMQ say Redis is gone by name or by message only. */
const REDIS_ERROR_NAMES = new Set(['MaxRetriesPerRequestError', 'QueueUnavailableError']);
const REDIS_MESSAGES = /Connection is closed|Stream isn't writeable|enableOfflineQueue|Redis is not connected/;
const POSTGRES_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/;

/**
 * The fault behind an error, looking through its causes (Prisma's driver adapter wraps pg's errors): PostgreSQL
 * or Redis unreachable or timing out is a 503, a full disk a 507. Anything else is not a fault of this kind.
 */
export function infrastructureFaultOf(error: unknown): InfrastructureFault | undefined {
  for (let current = error, depth = 0; current instanceof Object && depth < 4; current = causeOf(current), depth++) {
    const fault = faultOf(current as Error & { code?: unknown });
    if (fault) return fault;
  }
  return undefined;
}

/**
 * What an error wraps. Prisma answers a PostgreSQL error it has no code of its own for (a statement
 * timeout among them) as P2039, holding the driver adapter's error in `meta`, not in `cause`.
 */
function causeOf(error: object): unknown {
  const { cause, meta } = error as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
  return cause ?? meta?.driverAdapterError;
}

function faultOf(error: Error & { code?: unknown }): InfrastructureFault | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  if (code === 'ENOSPC') return { status: 507, kind: 'storage-full', retryAfterSeconds: 60, detail: 'storage is full; nothing was accepted, try again later' };
  if (code === '57014') return { status: 503, kind: 'database', retryAfterSeconds: 1, detail: 'the database did not answer in time; try again shortly' };
  if (POSTGRES_UNAVAILABLE.test(code) || PRISMA_UNAVAILABLE.has(code) || POSTGRES_MESSAGES.test(message))
    return { status: 503, kind: 'database', retryAfterSeconds: 5, detail: 'the database is unavailable; try again shortly' };
  if (REDIS_ERROR_NAMES.has(error.name) || REDIS_MESSAGES.test(message))
    return { status: 503, kind: 'redis', retryAfterSeconds: 5, detail: 'the queue and event store is unavailable; try again shortly' };
  if (NETWORK_CODES.has(code))
    return { status: 503, kind: 'network', retryAfterSeconds: 5, detail: 'a service this request needs is unavailable; try again shortly' };
  return undefined;
}
