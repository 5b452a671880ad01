import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestsOf, spreadOf, type HttpLoad, type LoadResult } from './load-result';

/** How long the answers still owed when the offering ends are waited for; those later count with their wait so far. */
const LAST_ANSWERS_WAIT_MS = 5000;
/** The schedule is caught up this often: requests due meanwhile leave together, each timed from its own due time. */
const TICK_MS = 1;

/**
 * Offers requests at a fixed rate over at most `connections` keep-alive connections,
 * whatever the answers (open loop), as clients that do not wait for each other do:
 * autocannon and wrk only send a connection's next request once its answer came, so a
 * slower server is offered less. Each latency counts from the request's due time, so a
 * request that waited for a free connection counts that wait too.
 */
export async function runOpenLoop(load: HttpLoad & { ratePerSecond: number }): Promise<LoadResult & { accepted: number }> {
  const requests = requestsOf(load);
  const agent = new Agent({ keepAlive: true, maxSockets: load.connections });
  const latencies: number[] = [];
  const owed = new Map<number, number>();
  let accepted = 0;
  let non2xx = 0;
  let socketErrors = 0;
  let bytes = 0;
  let offered = 0;
  const offer = (index: number, dueAt: number) => {
    const { method, path, headers, body } = requests[index % requests.length];
    owed.set(index, dueAt);
    const outgoing = request(new URL(path, load.base), { method, agent, headers: { ...load.headers, ...headers } }, (response) => {
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => {
        owed.delete(index);
        latencies.push(performance.now() - dueAt);
        if (response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300) accepted++;
        else non2xx++;
      });
    });
    outgoing.on('error', () => {
      if (!owed.has(index)) return;
      owed.delete(index);
      socketErrors++;
    });
    outgoing.end(body);
  };
  const total = Math.round(load.durationSeconds * load.ratePerSecond);
  const startedAt = performance.now();
  while (offered < total) {
    const due = Math.min(total, Math.floor(((performance.now() - startedAt) / 1000) * load.ratePerSecond) + 1);
    for (; offered < due; offered++) offer(offered, startedAt + (offered / load.ratePerSecond) * 1000);
    await sleep(TICK_MS);
  }
  for (const giveUpAt = performance.now() + LAST_ANSWERS_WAIT_MS; owed.size > 0 && performance.now() < giveUpAt;) await sleep(10);
  const endedAt = performance.now();
  const stillOwed = [...owed.values()].map((dueAt) => endedAt - dueAt);
  agent.destroy();
  // Over the offering: a server that keeps up accepts the offered rate, whatever its answers' latency.
  const seconds = load.durationSeconds;
  return {
    tool: 'open-loop',
    connections: load.connections,
    durationSeconds: seconds,
    responses: latencies.length,
    requestsPerSecond: accepted / seconds,
    accepted,
    latencyMs: spreadOf([...latencies, ...stillOwed]),
    bytesPerSecond: bytes / seconds,
    non2xx,
    socketErrors,
  };
}
