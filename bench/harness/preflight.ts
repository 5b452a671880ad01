import { requestsOf, type LoadTarget } from './load-result';

/**
 * Sends one request before the load, so a route that fails stops the scenario with its
 * answer instead of being measured as thousands of fast errors.
 */
export async function expectSuccess(base: URL, target: LoadTarget): Promise<void> {
  const [request] = requestsOf(target);
  const url = new URL(request.path, base);
  const response = await fetch(url, {
    method: request.method,
    headers: { ...target.headers, ...request.headers },
    body: request.body,
    signal: AbortSignal.timeout(30_000),
  });
  const body = await response.arrayBuffer();
  if (!answered(response.status)) {
    throw new Error(`${request.method} ${url} answered ${response.status}: ${Buffer.from(body).toString('utf8', 0, 300)}`);
  }
}

/** A 2xx, or a 304 to a revalidation (If-None-Match naming what the client holds): the request did what it asked. */
export function answered(status: number): boolean {
  return (status >= 200 && status < 300) || status === 304;
}
