import type { LoadTarget } from './load-result';

/**
 * Sends one request before the load, so a route that fails stops the scenario with its
 * answer instead of being measured as thousands of fast errors.
 */
export async function expectSuccess(base: URL, target: LoadTarget): Promise<void> {
  const path = target.paths[0];
  const response = await fetch(new URL(path, base), { headers: target.headers, signal: AbortSignal.timeout(30_000) });
  const body = await response.arrayBuffer();
  if (!response.ok) {
    throw new Error(`GET ${new URL(path, base)} answered ${response.status}: ${Buffer.from(body).toString('utf8', 0, 300)}`);
  }
}
