import type { Scenario } from '../scenarios/scenario';
import { runAutocannon } from './autocannon-load';
import type { LoadResult, LoadTarget } from './load-result';
import { expectSuccess } from './preflight';
import { sampleTreeRss } from './rss-sampler';
import { runWrk } from './wrk-load';

export interface Measurement extends LoadResult {
  /** Highest RSS of the server's process tree during the measured load. */
  peakRssBytes: number;
}

/**
 * Unmeasured load first, so the JIT, the pools and the page cache are warm when figures
 * are taken. Few connections, because a slow server keeps answering the warm-up's
 * requests after it ends, which would eat into the measured run.
 */
const WARM_UP = { durationSeconds: 2, maxConnections: 8 };

/** Loads one server with a scenario's tool and connections while sampling its memory. */
export async function measure(
  scenario: Scenario,
  server: { base: URL; pid: number },
  target: LoadTarget,
  durationSeconds: number,
): Promise<Measurement> {
  await expectSuccess(server.base, target);
  const load = { base: server.base, connections: scenario.connections, durationSeconds, ...target };
  const run = scenario.tool === 'wrk' ? runWrk : runAutocannon;
  await run({ ...load, durationSeconds: WARM_UP.durationSeconds, connections: Math.min(load.connections, WARM_UP.maxConnections) });
  // Answered only once the warm-up's leftover requests are, on a server that shares its CPU among them.
  await expectSuccess(server.base, target);
  const sampler = sampleTreeRss(server.pid);
  try {
    const result = await run(load);
    return { ...result, peakRssBytes: sampler.stop() };
  } finally {
    sampler.stop();
  }
}
