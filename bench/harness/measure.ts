import { cpus } from 'node:os';
import type { LoadScenario } from '../scenarios/scenario';
import { runAutocannon } from './autocannon-load';
import type { HttpLoad, LoadResult, LoadTarget } from './load-result';
import { runOpenLoop } from './open-loop-load';
import { expectSuccess } from './preflight';
import { machineCpuTicks, mainThreadCpuSeconds, mainThreadSchedSeconds, treeCpuSeconds } from './process-tree';
import { sampleTreeRss } from './rss-sampler';
import { runWrk } from './wrk-load';

export interface Measurement extends LoadResult {
  /** Highest RSS of the server's process tree during the measured load. */
  peakRssBytes: number;
  /** CPU time of the server's process tree over the measured load ÷ its length: 1 is one core busy throughout. */
  cpuCores?: number;
  /**
   * The same for the main thread of the process that answered /health, where its
   * JavaScript runs: near 1, that process can do no more.
   */
  mainThreadCpuCores?: number;
  /** Share of the load the main thread was runnable but waiting for a core, taken by other processes on this machine. */
  mainThreadWaitingShare?: number;
  /** Busy cores of the whole machine (server, database, Redis, load generator, ...) over the measured load. */
  machineBusyCores?: number;
}

/**
 * Unmeasured load first, so the JIT, the pools and the page cache are warm when figures
 * are taken. Few connections, because a slow server keeps answering the warm-up's
 * requests after it ends, which would eat into the measured run.
 */
const WARM_UP = { durationSeconds: 2, maxConnections: 8 };

/** Loads one server with a scenario's tool and connections while sampling its memory. */
export async function measure(
  scenario: LoadScenario,
  server: { base: URL; pid: number; mainPid?: number },
  target: LoadTarget,
  durationSeconds: number,
): Promise<Measurement> {
  await expectSuccess(server.base, target);
  const load = { base: server.base, connections: scenario.connections, durationSeconds, ...target };
  const run = runnerOf(scenario);
  await run({ ...load, durationSeconds: WARM_UP.durationSeconds, connections: Math.min(load.connections, WARM_UP.maxConnections) });
  // Answered only once the warm-up's leftover requests are, on a server that shares its CPU among them.
  await expectSuccess(server.base, target);
  const sampler = sampleTreeRss(server.pid);
  try {
    const mainPid = server.mainPid ?? server.pid;
    const before = {
      tree: treeCpuSeconds(server.pid),
      main: mainThreadCpuSeconds(mainPid),
      sched: mainThreadSchedSeconds(mainPid),
      machine: machineCpuTicks(),
    };
    const startedAt = performance.now();
    const result = await run(load);
    const seconds = (performance.now() - startedAt) / 1000;
    const machine = machineCpuTicks();
    return {
      ...result,
      peakRssBytes: sampler.stop(),
      cpuCores: (treeCpuSeconds(server.pid) - before.tree) / seconds,
      mainThreadCpuCores: (mainThreadCpuSeconds(mainPid) - before.main) / seconds,
      mainThreadWaitingShare: (mainThreadSchedSeconds(mainPid).waiting - before.sched.waiting) / seconds,
      // /proc/stat counts every core's ticks: busy share × cores is busy cores.
      machineBusyCores: ((machine.busy - before.machine.busy) / (machine.total - before.machine.total)) * cpus().length,
    };
  } finally {
    sampler.stop();
  }
}

function runnerOf(scenario: LoadScenario): (load: HttpLoad) => Promise<LoadResult> {
  switch (scenario.tool) {
    case 'wrk':
      return runWrk;
    case 'autocannon':
      return runAutocannon;
    case 'open-loop': {
      const ratePerSecond = scenario.offeredRatePerSecond;
      if (!ratePerSecond) throw new Error(`${scenario.name} is open-loop without an offered rate`);
      return (load) => runOpenLoop({ ...load, ratePerSecond });
    }
  }
}
