import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** What a client may name its request by: short, and nothing a log line or a header could be broken with. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** The request id a client sent (X-Request-Id) when it is acceptable, else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTABLE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Runs `work` as part of the request (or job) `requestId`: every log line and queued job inside carries it. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
